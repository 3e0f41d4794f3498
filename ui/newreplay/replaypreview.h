// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace redrive::ui {

// What `POST replays/preview` says a replay would do, and the wording the console derives
// from it for the confirmation.
struct ReplayPreview {
    struct Destination {
        QString name;
        Risk risk = Risk::Low;
        int count = 0;
    };
    QString selectionHash;
    int count = 0;
    int alreadySucceeded = 0;
    int outcomeUnknown = 0;
    bool requiresApproval = false;
    QStringList approvalReasons; // codes: high_risk_destination, already_succeeded, outcome_unknown
    QList<Destination> destinations;
    QString effect;

    static std::optional<ReplayPreview> fromJson(const QJsonObject &json, QString *error);

    // High risk: anything that could act twice downstream or touches a high-risk destination.
    [[nodiscard]] bool isHighRisk() const;
    // What must be typed to confirm a high-risk replay ("replay 12").
    [[nodiscard]] QString confirmPhrase() const;
    // The dangerous button's label: names the action and its size.
    [[nodiscard]] QString actionLabel() const;
    // Why a second operator must approve, one sentence per reason: "fulfillment is a high-risk
    // destination", "2 deliveries already succeeded downstream", "1 delivery's outcome is unknown".
    [[nodiscard]] QStringList approvalReasonsInWords() const;
};

// "1 delivery", "12 deliveries".
QString deliveriesText(qsizetype n);

} // namespace redrive::ui
