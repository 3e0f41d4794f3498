// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QLoggingCategory>

// The admin API's logging categories, like the other rooms': "redrive.admin" for requests,
// tokens and the audit chain, "redrive.admin.replay" for the replay executor. Turn one up or
// down with QT_LOGGING_RULES without touching the rest of the receiver.
Q_DECLARE_LOGGING_CATEGORY(lcAdmin)
Q_DECLARE_LOGGING_CATEGORY(lcReplay)
