// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/consolelink.h"

#include <QObject>

#include <optional>

namespace redrive::ui {

class ConsoleController;

// Shows what a redrive:// link names in the console: an event's detail on the Events page, an
// incident selected on the Dead letters page, a replay request on the Replays page, a destination
// on the Destinations page. The window comes to the front for every link.
//
// Under the right profile, never silently under another: not connected yet, it connects with the
// profile the link names (as --profile does) and opens the link once connected; connected with a
// different profile than the link names, it opens nothing and says so in the link banner, with a
// button that switches to that profile. A link naming no profile opens under the profile the
// console is connected with. A thing that is not in the receiver's database is said plainly.
class LinkOpener final : public QObject {
    Q_OBJECT
public:
    explicit LinkOpener(ConsoleController &console, QObject *parent = nullptr);

    void open(ConsoleLink link); // a copy: it may be the pending link this replaces
    // For a console that is connecting already (`redrive --profile NAME LINK`): opens the link once
    // the session starts, as open() would then.
    void openWhenConnected(const ConsoleLink &link);
    // The link waiting for a connection (or a switch of profile), if any.
    [[nodiscard]] const std::optional<ConsoleLink> &pending() const { return m_pending; }

Q_SIGNALS:
    // The link's page shows it (`found`), or says it is not there (!found).
    void opened(const redrive::ConsoleLink &link, bool found);

private:
    void raiseWindow();
    void navigate(const ConsoleLink &link);
    void switchProfile();
    void finish(const ConsoleLink &link, bool found, const QString &missingText);
    [[nodiscard]] QString what(const ConsoleLink &link) const;

    ConsoleController &m_console;
    std::optional<ConsoleLink> m_pending; // opened once a session under its profile starts
    std::optional<ConsoleLink> m_mismatch; // for another profile: the switch button's
    QMetaObject::Connection m_wait; // the page's answer for the link being opened
    QMetaObject::Connection m_waitMissing; // the event detail's "not there"
};

} // namespace redrive::ui
