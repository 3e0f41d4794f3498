// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QList>
#include <QString>

namespace redrive {

// Whether the downstream acted on a delivery, as far as Redrive knows. A 2xx with the
// destination's own reference is the strongest proof; a timeout after the request was fully
// sent means the downstream may have acted even though no answer came.
enum class DownstreamState {
    None, // no delivery (no route matched)
    Pending, // not delivered yet (pending, in flight, or retrying after a clean failure)
    Succeeded, // 2xx, but the destination returned no reference
    SucceededWithRef, // 2xx and the destination's reference was recorded
    Failed, // dead-lettered: exhausted or permanent failure, and the downstream did not act
    OutcomeUnknown, // the request may have been processed; replaying could act twice
    Resolved, // a dead letter someone resolved by hand (handled another way, or not needed)
};

QString toString(DownstreamState state); // "succeeded_ref", "outcome_unknown", ...
QString describe(DownstreamState state); // "Succeeded (reference recorded)", ...

// One delivery's state from its stored fields (status as stored, outcome_unknown flag,
// downstream_ref possibly empty). A status this build does not know counts as not delivered yet.
DownstreamState downstreamState(
    const Stored<DeliveryStatus> &deliveryStatus, bool outcomeUnknown, const QString &downstreamRef);

// An event's indicator: the one that most needs a person's attention among its deliveries
// (outcome unknown > failed > pending > succeeded without reference > resolved by hand > succeeded
// with reference).
DownstreamState summariseDownstream(const QList<DownstreamState> &deliveries);

} // namespace redrive
