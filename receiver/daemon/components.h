// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "component.h"

#include <vector>

namespace redrive::daemon {

// The components `redrived --config FILE` runs beside ingest, in start order.
std::vector<ComponentFactory> builtInComponents();

} // namespace redrive::daemon
