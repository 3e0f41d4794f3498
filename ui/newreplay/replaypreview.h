// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "replay/replaypolicy.h"
#include "util/result.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace redrive::ui {

// What `POST replays/preview` says a replay would do: the receiver's own selection summary
// (read with its parser, so an unknown risk word is an error here too) plus the hash the
// request binds to, and the wording the console derives from it for the confirmation.
struct ReplayPreview : replay::SelectionSummary {
    Q_DECLARE_TR_FUNCTIONS(redrive::ui::ReplayPreview)

public:
    using Destination = replay::DestinationCount;
    QString selectionHash;

    // A preview must carry its selection_hash and a count. High risk is the summary's own
    // isHighRisk().
    static Result<ReplayPreview> fromJson(const QJsonObject &json);

    // What must be typed to confirm a high-risk replay ("replay 12").
    [[nodiscard]] QString confirmPhrase() const;
    // The dangerous button's label: names the action and its size.
    [[nodiscard]] QString actionLabel() const;
    // approvalReasonsInWords(*this).
    [[nodiscard]] QStringList approvalReasonsInWords() const;
};

// Why a second operator must approve, one sentence per reason: "fulfillment is a high-risk
// destination", "2 deliveries already succeeded downstream", "1 delivery's outcome is unknown".
// The same words for a preview and for a replay request read back from `GET replays`.
[[nodiscard]] QStringList approvalReasonsInWords(const replay::SelectionSummary &summary);

// "1 delivery", "12 deliveries".
QString deliveriesText(qsizetype n);

} // namespace redrive::ui
