// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/result.h"

#include <QString>

// Links that open the console at one thing: `redrive://<kind>/<id>[?profile=<name>]`, kind one of
// event, incident, replay (a positive number as id) or destination (its name, percent-encoded).
// The receiver writes them into notifications; the desktop file registers the console as the
// handler of x-scheme-handler/redrive, and a running console takes the link over its local socket.
// `profile` names the console profile to show it under; without it the console uses the profile
// it is connected with (or asks). The form is a contract: links sent yesterday still open today.
namespace redrive {

enum class LinkTarget { Event, Incident, Replay, Destination };

struct ConsoleLink {
    LinkTarget target = LinkTarget::Event;
    QString id; // digits for event, incident and replay; the destination's name
    QString profile; // empty = no profile named

    [[nodiscard]] qint64 number() const { return id.toLongLong(); } // event, incident, replay
    [[nodiscard]] QString toString() const;
    friend bool operator==(const ConsoleLink &, const ConsoleLink &) = default;
};

// "event", "incident", "replay", "destination".
QString linkTargetName(LinkTarget target);

// Reads a link; a clear reason for anything else (another scheme, an unknown kind, a missing or
// malformed id, an unknown query key).
Result<ConsoleLink> parseConsoleLink(const QString &text);

} // namespace redrive
