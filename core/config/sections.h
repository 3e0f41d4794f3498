// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Internal to core/config: one parser per configuration section.
#include "config.h"

#include <toml++/toml.h>

namespace redrive::config_detail {

bool parseServer(const toml::table &t, Config &cfg, ConfigError *error);
bool parseStorage(const toml::table &t, Config &cfg, ConfigError *error);
bool parseDelivery(const toml::table &t, Config &cfg, ConfigError *error);
bool parseAdmin(const toml::table &t, Config &cfg, ConfigError *error);
bool parseIncidents(const toml::table &t, Config &cfg, ConfigError *error);
// Array-of-table entries; `path` is "sources[2]" etc.
bool parseSource(const toml::table &t, const QString &path, Config &cfg, ConfigError *error);
bool parseDestination(const toml::table &t, const QString &path, Config &cfg, ConfigError *error);
// `[sources.reconcile]` of `source` (reconcileconfig.cpp); `path` is "sources[2].reconcile".
bool parseReconcile(const toml::node &node, const QString &path, SourceConfig &source, ConfigError *error);
// `[[notifications]]`: also appends the target's internal destination to cfg.destinations.
bool parseNotification(const toml::table &t, const QString &path, Config &cfg, ConfigError *error);
bool parseRoute(const toml::table &t, const QString &path, Config &cfg, ConfigError *error);

} // namespace redrive::config_detail
