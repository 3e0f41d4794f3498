// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "components.h"

#include "admin/adminapi.h"
#include "delivery/engine.h"
#include "httpcomponent.h"
#include "reconcile/reconciler.h"

namespace redrive::daemon {

namespace {

// The delivery engine: claims due deliveries and sends them. Woken in-process by every ingest
// commit that created deliveries and by the admin API (replays queued, destinations resumed),
// so the first attempt does not wait for the next poll; on PostgreSQL also by NOTIFY from any
// receiver on the database.
class DeliveryComponent final : public Component {
public:
    DeliveryComponent(
        const Config &config, const StorageUrl &storage, const Clock &clock, metrics::Registry &metrics)
        : m_engine(config, storage, clock, metrics)
    { }
    [[nodiscard]] QString name() const override { return QStringLiteral("delivery"); }
    Result<> start() override { return m_engine.start(); }
    void stop() override { m_engine.stop(10'000); }
    delivery::DeliveryEngine *engine() { return &m_engine; }

private:
    delivery::DeliveryEngine m_engine;
};

// Reconciliation with the provider, when a source has [sources.reconcile]: its schedule, and the
// runs the admin API claims for it.
class ReconcileComponent final : public Component {
public:
    explicit ReconcileComponent(DaemonContext &ctx)
        : m_reconciler(ctx.config, ctx.storage, *ctx.writer, ctx.metrics, ctx.clock, ctx.instanceId)
    { }
    [[nodiscard]] QString name() const override { return QStringLiteral("reconcile"); }
    Result<> start() override { return m_reconciler.start(); }
    void stop() override { m_reconciler.stop(); }
    reconcile::Reconciler *reconciler() { return &m_reconciler; }

private:
    reconcile::Reconciler m_reconciler;
};

// The admin API and its own listener. The API (workers, replay executor) starts before the
// listener accepts anything, and the listener stops first.
class AdminComponent final : public Component {
public:
    AdminComponent(const Config &config, const StorageUrl &storage, const Clock &clock,
        metrics::Registry &metrics, http::ServerOptions options, std::function<void()> wakeDelivery,
        admin::ReconcileLauncher reconciler)
        : m_api(std::make_shared<admin::AdminApi>(config, storage, clock, metrics))
        , m_listener(QStringLiteral("admin"), std::move(options),
              [api = m_api](http::Request &&request, http::Responder respond) {
                  api->handle(std::move(request), std::move(respond));
              })
    {
        m_api->setDeliveryWake(std::move(wakeDelivery));
        m_api->setReconcileLauncher(std::move(reconciler));
    }
    [[nodiscard]] QString name() const override { return QStringLiteral("admin"); }
    Result<> start() override
    {
        if (auto started = m_api->start(); !started)
            return started;
        if (auto listening = m_listener.start(); !listening) {
            m_api->stop();
            return listening;
        }
        return ok();
    }
    void stop() override
    {
        m_listener.stop();
        m_api->stop();
    }

private:
    std::shared_ptr<admin::AdminApi> m_api;
    HttpServerComponent m_listener;
};

} // namespace

// Components run by `redrived --config FILE`, started in this order after the group-commit
// writer and before the ingest listener, and stopped in reverse after ingest has drained.
std::vector<ComponentFactory> builtInComponents()
{
    std::vector<ComponentFactory> factories;
    factories.push_back([](DaemonContext &ctx) -> Result<std::unique_ptr<Component>> {
        if (!ctx.config->delivery.enabled)
            return nullptr;
        auto component
            = std::make_unique<DeliveryComponent>(*ctx.config, ctx.storage, ctx.clock, ctx.metrics);
        delivery::DeliveryEngine *engine = component->engine();
        engine->setOwnWakeOrigin(ctx.instanceId.toUtf8());
        ctx.addCommitListener([engine](const ingest::CommitSummary &summary) {
            if (summary.newDeliveries > 0)
                engine->wake();
        });
        ctx.wakeDelivery = [engine] { engine->wake(); };
        return component;
    });
    factories.push_back([](DaemonContext &ctx) -> Result<std::unique_ptr<Component>> {
        const bool any = std::any_of(ctx.config->sources.cbegin(), ctx.config->sources.cend(),
            [](const SourceConfig &s) { return s.reconcile.has_value(); });
        if (!any || !ctx.writer)
            return nullptr;
        auto component = std::make_unique<ReconcileComponent>(ctx);
        reconcile::Reconciler *reconciler = component->reconciler();
        ctx.reconcileLauncher = admin::ReconcileLauncher { reconciler->owner(), reconciler->leaseMs(),
            [reconciler](const reconcile::Run &run) { reconciler->launch(run); } };
        return component;
    });
    factories.push_back([](DaemonContext &ctx) -> Result<std::unique_ptr<Component>> {
        auto options = adminServerOptions(*ctx.config);
        if (!options)
            return nullptr;
        return std::make_unique<AdminComponent>(*ctx.config, ctx.storage, ctx.clock, ctx.metrics, *options,
            ctx.wakeDelivery, ctx.reconcileLauncher);
    });
    return factories;
}

} // namespace redrive::daemon
