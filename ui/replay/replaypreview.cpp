// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaypreview.h"

#include <QJsonArray>

namespace redrive::ui {

std::optional<ReplayPreview> ReplayPreview::fromJson(const QJsonObject &o, QString *error)
{
    ReplayPreview p;
    p.selectionHash = o.value(QLatin1String("selection_hash")).toString();
    if (p.selectionHash.isEmpty() || !o.value(QLatin1String("count")).isDouble()) {
        *error = QStringLiteral("The admin API's preview had no selection_hash or count.");
        return std::nullopt;
    }
    p.count = o.value(QLatin1String("count")).toInt();
    p.alreadySucceeded = o.value(QLatin1String("already_succeeded")).toInt();
    p.outcomeUnknown = o.value(QLatin1String("outcome_unknown")).toInt();
    p.requiresApproval = o.value(QLatin1String("requires_approval")).toBool();
    for (const QJsonValue &v : o.value(QLatin1String("approval_reasons")).toArray())
        p.approvalReasons.append(v.toString());
    for (const QJsonValue &v : o.value(QLatin1String("destinations")).toArray()) {
        const QJsonObject d = v.toObject();
        p.destinations.append({ d.value(QLatin1String("name")).toString(),
            d.value(QLatin1String("risk")).toString(), d.value(QLatin1String("count")).toInt() });
    }
    p.effect = o.value(QLatin1String("effect")).toString();
    return p;
}

bool ReplayPreview::isHighRisk() const
{
    if (requiresApproval || alreadySucceeded > 0 || outcomeUnknown > 0)
        return true;
    for (const Destination &d : destinations) {
        if (d.risk == u"high")
            return true;
    }
    return false;
}

QString ReplayPreview::confirmPhrase() const
{
    return QStringLiteral("replay %1").arg(count);
}

QString ReplayPreview::actionLabel() const
{
    const QString what
        = count == 1 ? QStringLiteral("1 delivery") : QStringLiteral("%1 deliveries").arg(count);
    return requiresApproval ? QStringLiteral("Request approval to replay %1").arg(what)
                            : QStringLiteral("Replay %1").arg(what);
}

} // namespace redrive::ui
