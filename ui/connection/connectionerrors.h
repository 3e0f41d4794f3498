// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "connection/connectionprofile.h"

namespace redrive::ui {

// A failure to connect, in words, with the driver's own text kept as a detail line.
struct ConnectionProblem {
    QString field; // the profile field to look at ("pgPassword", "sqlitePath", "adminUrl", ...), may be empty
    QString summary; // one or two sentences saying what is wrong and what to do
    QString detail; // the driver's or server's text, for the curious; never a secret
};

ConnectionProblem explainDatabaseError(const ConnectionProfile &profile, const QString &driverText);
// `version` as read by schemaVersion(); `expected` is kSchemaVersion.
std::optional<ConnectionProblem> checkSchemaVersion(
    const ConnectionProfile &profile, int version, int expected, const QString &driverText = {});

} // namespace redrive::ui
