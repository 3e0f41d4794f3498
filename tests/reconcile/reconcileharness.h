// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// The ingest pipeline (IngestHarness) plus what a reconciliation needs around it: a Stripe and a
// GitHub stand-in, a scripted downstream, the delivery engine, and the reconciler under test.
// Sources: rs (stripe, reconcile against the Stripe stand-in, routed to "down") and rg (github,
// reconcile against the GitHub stand-in, hook repos/acme/shop/hooks/7).

#include "delivery/engine.h"
#include "ingestharness.h"
#include "providerstandins.h"
#include "reconcile/reconciler.h"
#include "scriptabledestination.h"

#include <QByteArray>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace redrive::test {

inline const QByteArray kStripeKey = QByteArrayLiteral("sk_test_4eC39HqLyjWDarjtT1zdp7dcSECRET");
inline const QByteArray kGitHubToken = QByteArrayLiteral("ghp_16C7e42F292c6912E7710c838347Ae178B4aSECRET");
inline const QByteArray kGitHubSecret = QByteArrayLiteral("rg-webhook-secret");
inline const QByteArray kStripeSecret = QByteArrayLiteral("whsec_rs_webhook_secret");
inline const QString kHook = QStringLiteral("repos/acme/shop/hooks/7");

inline QByteArray reconcileToml(const QString &stripeUrl, const QString &githubUrl, const QUrl &downstream,
    const QByteArray &stripeKey = kStripeKey, const QByteArray &every = "0", const QString &stripeSchema = {})
{
    // A JSON Schema for the Stripe source's charge.refunded events, when asked for.
    const QByteArray schemas = stripeSchema.isEmpty()
        ? QByteArray()
        : "[[sources.schemas]]\nevent_types = [\"charge.refunded\"]\nschema = \"" + stripeSchema.toUtf8()
            + "\"\n";
    return QByteArray(R"(
[[sources]]
name = "rs"
scheme = "stripe"
secrets = [")")
        + kStripeSecret + R"("]
keys = { order = "json:/data/object/metadata/order_id" }
[sources.reconcile]
provider = "stripe"
api_url = ")"
        + stripeUrl.toUtf8() + R"("
credential = ")"
        + stripeKey + R"("
every = ")"
        + every + R"("
lookback = "72h"
)" + schemas
        + R"(
[[sources]]
name = "rg"
scheme = "github"
secrets = [")"
        + kGitHubSecret + R"("]
[sources.reconcile]
provider = "github"
api_url = ")"
        + githubUrl.toUtf8() + R"("
credential = ")"
        + kGitHubToken + R"("
every = "0"
lookback = "72h"
hook = ")"
        + kHook.toUtf8() + R"("

[[destinations]]
name = "down"
url = ")"
        + downstream.toString().toUtf8() + R"("
allow_private = true

[[routes]]
source = "rs"
destinations = ["down"]
)";
}

// Waits for runs to finish (the reconciler's onFinished callback, on its thread).
class RunWatcher final {
public:
    void finished(const reconcile::Run &run)
    {
        std::lock_guard lock(m_mutex);
        m_runs.append(run);
        m_cv.notify_all();
    }
    // The `n`th finished run (1-based), waiting up to `timeoutMs`; nullopt on timeout.
    std::optional<reconcile::Run> wait(int n, int timeoutMs = 30'000)
    {
        std::unique_lock lock(m_mutex);
        if (!m_cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return m_runs.size() >= n; }))
            return std::nullopt;
        return m_runs.at(n - 1);
    }
    int count()
    {
        std::lock_guard lock(m_mutex);
        return static_cast<int>(m_runs.size());
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    QList<reconcile::Run> m_runs;
};

} // namespace redrive::test
