// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "util/result.h"

#include <optional>
#include <utility>

namespace redrive {

// Just the retry settings of a receiver configuration file: each destination's name,
// max_attempts and retry_schedule, and [delivery] jitter (and which sources reconcile). Secrets are not read,
// so the console can use a copy of the receiver's config without the receiver's environment to project when
// the remaining attempts of a delivery will run.
struct RetrySchedules {
    double jitter = 0.2;
    QList<DestinationConfig> destinations; // only name, maxAttempts and retryScheduleMs are set
    // Sources with a [sources.reconcile] table: their name and provider (nothing else is read,
    // the credential least of all), so the console lists them before their first run.
    QList<std::pair<QString, QString>> reconciledSources;

    [[nodiscard]] const DestinationConfig *destination(QStringView name) const;
};

Result<RetrySchedules> readRetrySchedules(const QString &path);
Result<RetrySchedules> parseRetrySchedules(const QByteArray &toml);

} // namespace redrive
