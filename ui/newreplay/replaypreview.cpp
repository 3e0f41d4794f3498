// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaypreview.h"

namespace redrive::ui {

Result<ReplayPreview> ReplayPreview::fromJson(const QJsonObject &o)
{
    const QString hash = o.value(QLatin1String("selection_hash")).toString();
    if (hash.isEmpty() || !o.value(QLatin1String("count")).isDouble())
        return Failure(QStringLiteral("The admin API's preview had no selection_hash or count."));
    auto summary = replay::SelectionSummary::fromJson(o);
    if (!summary)
        return Failure(
            QStringLiteral("The admin API's replay summary is unreadable: %1.").arg(summary.error()));
    ReplayPreview p;
    static_cast<replay::SelectionSummary &>(p) = std::move(*summary);
    p.selectionHash = hash;
    return p;
}

QString ReplayPreview::confirmPhrase() const
{
    return QStringLiteral("replay %1").arg(count);
}

QString ReplayPreview::actionLabel() const
{
    const QString what = deliveriesText(count);
    return requiresApproval ? QStringLiteral("Request approval to replay %1").arg(what)
                            : QStringLiteral("Replay %1").arg(what);
}

QStringList ReplayPreview::approvalReasonsInWords() const
{
    return ui::approvalReasonsInWords(*this);
}

QStringList approvalReasonsInWords(const replay::SelectionSummary &s)
{
    using Destination = replay::DestinationCount;
    QStringList out;
    for (const QString &code : s.approvalReasons) {
        if (code == u"high_risk_destination") {
            QStringList high;
            for (const Destination &d : s.destinations) {
                if (d.risk == Risk::High)
                    high.append(d.name);
            }
            out.append(high.isEmpty() ? QStringLiteral("A destination is high-risk")
                    : high.size() == 1
                    ? QStringLiteral("%1 is a high-risk destination").arg(high.first())
                    : QStringLiteral("%1 are high-risk destinations").arg(high.join(QLatin1String(", "))));
        } else if (code == u"already_succeeded") {
            out.append(
                QStringLiteral("%1 already succeeded downstream").arg(deliveriesText(s.alreadySucceeded)));
        } else if (code == u"outcome_unknown") {
            out.append(s.outcomeUnknown == 1
                    ? QStringLiteral("1 delivery's outcome is unknown")
                    : QStringLiteral("%1 deliveries' outcome is unknown").arg(s.outcomeUnknown));
        } else {
            // A reason this console does not know yet: shown, not hidden.
            out.append(QString(code).replace(u'_', u' '));
        }
    }
    return out;
}

QString deliveriesText(qsizetype n)
{
    return n == 1 ? QStringLiteral("1 delivery") : QStringLiteral("%L1 deliveries").arg(n);
}

} // namespace redrive::ui
