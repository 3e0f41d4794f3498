// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"

#include <QStringList>
#include <QTextStream>

namespace redrive::daemon {

// `redrived --config FILE check`, like `nginx -t`: the configuration has already been parsed
// and every secret reference resolved (a failure there exits 2 before this runs). This adds
// what parsing cannot know: that the listen addresses belong to this host and do not collide,
// and that the files the receiver will read (TLS certificate and key, destination CA bundles)
// are readable. Nothing is started, bound or written. Exit 0, or 2 with the key named.
int checkCommand(const Config &config, const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace redrive::daemon
