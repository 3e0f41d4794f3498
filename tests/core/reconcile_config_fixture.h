// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Kept out of the test source: moc 6.4 does not tokenise raw string literals.
#pragma once

#include <QByteArray>

namespace {
// A config with one Stripe and one GitHub source; `%RECONCILE_STRIPE%` and `%RECONCILE_GITHUB%`
// are replaced by each test's [sources.reconcile] lines.
const QByteArray kReconcileBase = R"(
[storage]
url = "sqlite:///tmp/redrive.db"

[[sources]]
name = "stripe"
scheme = "stripe"
secrets = ["whsec_test"]
%RECONCILE_STRIPE%

[[sources]]
name = "gh"
scheme = "github"
secrets = ["hook-secret"]
%RECONCILE_GITHUB%
)";
} // namespace
