// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaypolicy.h"

#include <QJsonArray>

#include <algorithm>
#include <map>

namespace redrive::replay {
namespace {
constexpr int kDestinationsInWords = 10;

QString destinationPhrase(const DestinationCount &d, bool withCount)
{
    const QString what = QStringLiteral("%1 (%2 risk)").arg(d.name, toString(d.risk));
    return withCount ? QStringLiteral("%1 to %2").arg(d.count).arg(what) : QStringLiteral("to ") + what;
}

QString joinWithAnd(const QStringList &parts)
{
    if (parts.size() <= 1)
        return parts.value(0);
    return parts.mid(0, parts.size() - 1).join(QLatin1String(", ")) + QLatin1String(" and ") + parts.last();
}
} // namespace

SelectionSummary summarise(const QList<SelectionItem> &items)
{
    SelectionSummary s;
    s.count = static_cast<int>(items.size());
    std::map<QString, DestinationCount> byName;
    bool highRisk = false;
    for (const SelectionItem &i : items) {
        if (i.status == DeliveryStatus::Succeeded)
            ++s.alreadySucceeded;
        if (i.outcomeUnknown)
            ++s.outcomeUnknown;
        if (i.risk == Risk::High)
            highRisk = true;
        auto &d = byName[i.destination];
        d.name = i.destination;
        // A destination's risk comes from the configuration, so all its items agree; keep the
        // higher one if the configuration changed between rows.
        if (i.risk == Risk::High)
            d.risk = Risk::High;
        ++d.count;
    }
    for (const auto &entry : byName)
        s.destinations.append(entry.second);
    std::stable_sort(s.destinations.begin(), s.destinations.end(),
        [](const DestinationCount &a, const DestinationCount &b) { return a.count > b.count; });
    if (highRisk)
        s.approvalReasons.append(QStringLiteral("high_risk_destination"));
    if (s.alreadySucceeded > 0)
        s.approvalReasons.append(QStringLiteral("already_succeeded"));
    if (s.outcomeUnknown > 0)
        s.approvalReasons.append(QStringLiteral("outcome_unknown"));
    s.requiresApproval = !s.approvalReasons.isEmpty();
    s.effect = effectInWords(s);
    return s;
}

QString effectInWords(const SelectionSummary &s)
{
    if (s.count == 0)
        return QStringLiteral("Nothing will be sent: the selection is empty.");
    const bool one = s.count == 1;
    QString text;
    const QString keys = one ? QStringLiteral("its original idempotency key")
                             : QStringLiteral("their original idempotency keys");
    const QString noun = one ? QStringLiteral("1 delivery") : QStringLiteral("%1 deliveries").arg(s.count);
    if (s.destinations.size() == 1) {
        text = QStringLiteral("%1 %2 will be sent again with %3")
                   .arg(noun, destinationPhrase(s.destinations.first(), false), keys);
    } else {
        QStringList parts;
        for (qsizetype i = 0; i < s.destinations.size() && i < kDestinationsInWords; ++i)
            parts.append(destinationPhrase(s.destinations[i], true));
        if (s.destinations.size() > kDestinationsInWords) {
            int rest = 0;
            for (qsizetype i = kDestinationsInWords; i < s.destinations.size(); ++i)
                rest += s.destinations[i].count;
            parts.append(QStringLiteral("%1 to %2 more destinations")
                             .arg(rest)
                             .arg(s.destinations.size() - kDestinationsInWords));
        }
        text = QStringLiteral("%1 will be sent again with %2: %3").arg(noun, keys, joinWithAnd(parts));
    }
    QStringList caveats;
    if (s.alreadySucceeded > 0) {
        caveats.append(one
                ? QStringLiteral("it already succeeded downstream")
                : QStringLiteral("%1 of them already succeeded downstream").arg(s.alreadySucceeded));
    }
    if (s.outcomeUnknown > 0) {
        caveats.append(one
                ? QStringLiteral("it may already have reached the destination (outcome unknown)")
                : QStringLiteral("%1 of them may already have reached the destination (outcome unknown)")
                      .arg(s.outcomeUnknown));
    }
    if (!caveats.isEmpty())
        text += QLatin1String("; ") + caveats.join(QLatin1String(" and "));
    text += u'.';
    text += s.requiresApproval ? QStringLiteral(" It needs approval by an operator other than the requester.")
                               : QStringLiteral(" It runs as soon as it is requested.");
    return text;
}

Risk SelectionSummary::risk() const
{
    const bool high = std::any_of(destinations.cbegin(), destinations.cend(),
        [](const DestinationCount &d) { return d.risk == Risk::High; });
    return high ? Risk::High : Risk::Low;
}

bool SelectionSummary::isHighRisk() const
{
    return requiresApproval || alreadySucceeded > 0 || outcomeUnknown > 0 || risk() == Risk::High;
}

QJsonObject SelectionSummary::toJson() const
{
    QJsonArray dests;
    for (const DestinationCount &d : destinations) {
        dests.append(QJsonObject { { QStringLiteral("name"), d.name },
            { QStringLiteral("risk"), toString(d.risk) }, { QStringLiteral("count"), d.count } });
    }
    return QJsonObject {
        { QStringLiteral("count"), count },
        { QStringLiteral("already_succeeded"), alreadySucceeded },
        { QStringLiteral("outcome_unknown"), outcomeUnknown },
        { QStringLiteral("requires_approval"), requiresApproval },
        { QStringLiteral("approval_reasons"), QJsonArray::fromStringList(approvalReasons) },
        { QStringLiteral("destinations"), dests },
        { QStringLiteral("effect"), effect },
    };
}

Result<SelectionSummary> SelectionSummary::fromJson(const QJsonObject &o)
{
    if (!o.value(QLatin1String("count")).isDouble())
        return Failure(QStringLiteral("the replay summary has no count"));
    const QJsonValue destinationsValue = o.value(QLatin1String("destinations"));
    if (!destinationsValue.isUndefined() && !destinationsValue.isArray())
        return Failure(QStringLiteral("the replay summary's destinations are not a list"));
    SelectionSummary s;
    s.count = o.value(QLatin1String("count")).toInt();
    s.alreadySucceeded = o.value(QLatin1String("already_succeeded")).toInt();
    s.outcomeUnknown = o.value(QLatin1String("outcome_unknown")).toInt();
    s.requiresApproval = o.value(QLatin1String("requires_approval")).toBool();
    const QJsonArray reasons = o.value(QLatin1String("approval_reasons")).toArray();
    for (const auto &v : reasons)
        s.approvalReasons.append(v.toString());
    const QJsonArray destinations = destinationsValue.toArray();
    for (const auto &v : destinations) {
        const QJsonObject d = v.toObject();
        const QString name = d.value(QLatin1String("name")).toString();
        const QString word = d.value(QLatin1String("risk")).toString();
        const auto risk = riskFromString(word);
        if (!risk)
            return Failure(QStringLiteral("destination %1 has an unknown risk \"%2\"").arg(name, word));
        s.destinations.append(DestinationCount { name, *risk, d.value(QLatin1String("count")).toInt() });
    }
    s.effect = o.value(QLatin1String("effect")).toString();
    return s;
}

FrozenDrift frozenDrift(const DeliveryState &frozen, const std::optional<DeliveryState> &now)
{
    if (!now)
        return FrozenDrift::Gone;
    if (now->status != frozen.status)
        return FrozenDrift::Status;
    if (now->outcomeUnknown != frozen.outcomeUnknown)
        return FrozenDrift::OutcomeUnknown;
    return FrozenDrift::None;
}

} // namespace redrive::replay
