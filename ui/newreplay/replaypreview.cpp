// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaypreview.h"

namespace redrive::ui {

Result<ReplayPreview> ReplayPreview::fromJson(const QJsonObject &o)
{
    const QString hash = o.value(QLatin1String("selection_hash")).toString();
    if (hash.isEmpty() || !o.value(QLatin1String("count")).isDouble())
        return Failure(tr("The admin API's preview had no selection_hash or count."));
    auto summary = replay::SelectionSummary::fromJson(o);
    if (!summary)
        return Failure(tr("The admin API's replay summary is unreadable: %1.").arg(summary.error()));
    ReplayPreview p;
    static_cast<replay::SelectionSummary &>(p) = std::move(*summary);
    p.selectionHash = hash;
    return p;
}

QString ReplayPreview::confirmPhrase() const
{
    return tr("replay %1").arg(count);
}

QString ReplayPreview::actionLabel() const
{
    const QString what = deliveriesText(count);
    return requiresApproval ? tr("Request approval to replay %1").arg(what) : tr("Replay %1").arg(what);
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
            out.append(high.isEmpty() ? ReplayPreview::tr("A destination is high-risk")
                    : high.size() == 1
                    ? ReplayPreview::tr("%1 is a high-risk destination").arg(high.first())
                    : ReplayPreview::tr("%1 are high-risk destinations").arg(high.join(QLatin1String(", "))));
        } else if (code == u"already_succeeded") {
            out.append(
                ReplayPreview::tr("%1 already succeeded downstream").arg(deliveriesText(s.alreadySucceeded)));
        } else if (code == u"outcome_unknown") {
            out.append(s.outcomeUnknown == 1
                    ? ReplayPreview::tr("1 delivery's outcome is unknown")
                    : ReplayPreview::tr("%Ln deliveries' outcome is unknown", nullptr, s.outcomeUnknown));
        } else {
            // A reason this console does not know yet: shown, not hidden.
            out.append(QString(code).replace(u'_', u' '));
        }
    }
    return out;
}

QString deliveriesText(qsizetype n)
{
    return ReplayPreview::tr("%Ln deliver(y|ies)", nullptr, int(n));
}

} // namespace redrive::ui
