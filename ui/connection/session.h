// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "api/adminclient.h"
#include "api/permissions.h"
#include "common/dbexecutor.h"
#include "common/prompter.h"
#include "config/retryschedules.h"
#include "connection/connectionprofile.h"

#include <QObject>

namespace redrive::ui {

class ReplicaController;

// A live connection: the profile, the read-only database (one worker thread for the events
// list and detail, one for the slower aggregates), and the admin API client with who we are.
class Session final : public QObject {
    Q_OBJECT
public:
    explicit Session(ConnectionProfile profile, QObject *parent = nullptr)
        : QObject(parent)
        , m_profile(std::move(profile))
    { }

    [[nodiscard]] const ConnectionProfile &profile() const { return m_profile; }
    [[nodiscard]] DbExecutor *events() const { return m_events; }
    [[nodiscard]] DbExecutor *stats() const { return m_stats; }
    [[nodiscard]] AdminClient *admin() const { return m_admin; } // null when no admin API is configured
    [[nodiscard]] QString user() const { return m_user; }
    [[nodiscard]] std::optional<Role> role() const { return m_role; }
    [[nodiscard]] Permissions permissions() const { return Permissions::forRole(m_role); }
    // The destinations' retry schedules, when the profile names a receiver config file.
    [[nodiscard]] const std::optional<RetrySchedules> &retrySchedules() const { return m_schedules; }
    void setRetrySchedules(std::optional<RetrySchedules> schedules) { m_schedules = std::move(schedules); }
    // Waits for a hot standby to show the session's own writes (null until the console sets one).
    [[nodiscard]] ReplicaController *replica() const { return m_replica; }
    void setReplica(ReplicaController *replica) { m_replica = replica; }

    // Asks before an action on this receiver, under the profile's environment banner (name and
    // colour), so nobody approves or pauses in production thinking it is staging.
    Prompter::Answer askBeforeActing(QWidget *parent, Prompter::Question question) const
    {
        question.environment = m_profile.environment;
        question.environmentColour = m_profile.colour;
        question.profileName = m_profile.name;
        return Prompter::ask(parent, question);
    }

    void setExecutors(DbExecutor *events, DbExecutor *stats)
    {
        events->setParent(this);
        stats->setParent(this);
        m_events = events;
        m_stats = stats;
    }
    void setAdmin(AdminClient *admin, const QString &user, std::optional<Role> role)
    {
        if (admin)
            admin->setParent(this);
        m_admin = admin;
        m_user = user;
        m_role = role;
    }

private:
    ConnectionProfile m_profile;
    DbExecutor *m_events = nullptr;
    DbExecutor *m_stats = nullptr;
    AdminClient *m_admin = nullptr;
    QString m_user;
    std::optional<Role> m_role;
    std::optional<RetrySchedules> m_schedules;
    ReplicaController *m_replica = nullptr; // owned by the console; it clears this when it goes
};

} // namespace redrive::ui
