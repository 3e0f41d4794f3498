// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "components.h"

namespace redrive::daemon {

// ===== EXTENSION POINT: components run by `redrived --config FILE` =====================
// Each factory builds one component from the daemon context; the daemon starts them in this
// order (after the group-commit writer, before the ingest listener) and stops them in
// reverse (after ingest has drained, before the writer).
//
// Delivery engine (receiver/delivery, redrive_delivery), wired like this:
//     factories.push_back([](DaemonContext &ctx, QString *) -> std::unique_ptr<Component> {
//         if (!ctx.config->delivery.enabled)
//             return nullptr;
//         auto c = std::make_unique<DeliveryComponent>(*ctx.config, ctx.storage, ctx.clock, ctx.metrics);
//         auto *engine = c->engine();                              // DeliveryEngine *
//         ctx.addCommitListener([engine](const ingest::CommitSummary &s) {
//             if (s.newDeliveries > 0)
//                 engine->wake();                                   // new due deliveries
//         });
//         return c;
//     });
//   where DeliveryComponent owns a delivery::DeliveryEngine and forwards start()/stop(graceMs).
//
// Admin API (receiver/admin, redrive_admin) on [server].admin_listen, wired like this:
//     factories.push_back([](DaemonContext &ctx, QString *) -> std::unique_ptr<Component> {
//         auto options = adminServerOptions(*ctx.config);          // nullopt: no admin_listen
//         if (!options)
//             return nullptr;
//         return std::make_unique<AdminComponent>(*ctx.config, ctx.storage, ctx.clock, ctx.metrics, *options);
//     });
//   where AdminComponent owns an admin::AdminApi plus an HttpServerComponent whose handler is
//   [api](http::Request &&r, http::Responder respond) { api->handle(std::move(r), std::move(respond)); }
//   and starts the API before the listener (and stops the listener before the API).
// ==========================================================================================
std::vector<ComponentFactory> builtInComponents()
{
    std::vector<ComponentFactory> factories;
    return factories;
}

} // namespace redrive::daemon
