// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "replay/selection.h"
#include "util/result.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

// Which replays need a second person, and what a replay will do, in words. Pure logic.
namespace redrive::replay {

struct DestinationCount {
    QString name;
    Risk risk = Risk::Low;
    int count = 0;
    bool operator==(const DestinationCount &) const = default;
};

struct SelectionSummary {
    int count = 0;
    int alreadySucceeded = 0; // deliveries that succeeded downstream (with a reference, usually)
    int outcomeUnknown = 0; // deliveries whose last attempt may or may not have reached the downstream
    bool requiresApproval = false;
    QStringList approvalReasons; // high_risk_destination, already_succeeded, outcome_unknown
    QList<DestinationCount> destinations; // most deliveries first, then by name
    QString effect;

    // High when a destination is high-risk: the risk of the request, as the inbox shows it.
    [[nodiscard]] Risk risk() const;
    // High risk in the wider sense the console confirms by typing: anything that could act twice
    // downstream (already succeeded, outcome unknown), needs approval, or has a high risk().
    [[nodiscard]] bool isHighRisk() const;

    // {"count", "already_succeeded", "outcome_unknown", "requires_approval", "approval_reasons",
    //  "destinations": [{"name", "risk", "count"}], "effect"}. The one reading of these keys: the
    // receiver reads stored summaries with it and the console reads previews and replays with it.
    // An absent "destinations" is an empty list; a risk word this build does not know is refused
    // (never guessed), so the receiver and the console never disagree about a risk.
    [[nodiscard]] QJsonObject toJson() const;
    static Result<SelectionSummary> fromJson(const QJsonObject &object);
};

// A replay needs approval by an operator other than the requester when it touches a high-risk
// destination, a delivery that already succeeded downstream, or one whose outcome is unknown.
// Everything else (low risk, not yet succeeded) runs as soon as it is requested.
[[nodiscard]] SelectionSummary summarise(const QList<SelectionItem> &items);

// "12 deliveries to fulfillment (high risk) will be sent again with their original idempotency
// keys; 3 of them already succeeded downstream. It needs approval by an operator other than the
// requester."
[[nodiscard]] QString effectInWords(const SelectionSummary &summary);

// The one test of "the frozen selection changed", used when a replay is requested, approved
// and executed: a delivery changed when it is gone, its status moved, or its outcome-unknown
// flag flipped since the freeze (a status move is reported first). A delivery that succeeded or
// became outcome-unknown since would otherwise be resent without the approval that state needs.
struct DeliveryState {
    Stored<DeliveryStatus> status;
    bool outcomeUnknown = false;
};
enum class FrozenDrift { None, Gone, Status, OutcomeUnknown };
[[nodiscard]] FrozenDrift frozenDrift(const DeliveryState &frozen, const std::optional<DeliveryState> &now);

} // namespace redrive::replay
