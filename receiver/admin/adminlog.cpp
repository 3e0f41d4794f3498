// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "adminlog.h"

Q_LOGGING_CATEGORY(lcAdmin, "redrive.admin")
Q_LOGGING_CATEGORY(lcReplay, "redrive.admin.replay")
