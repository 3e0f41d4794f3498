// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/tablepage.h"

namespace redrive::ui {

// The Rejected requests page, passive: a status line over the table of requests the receiver
// refused. RejectionsController decides what it shows.
class RejectionsView final : public TablePage {
    Q_OBJECT
public:
    explicit RejectionsView(QWidget *parent = nullptr);
};

} // namespace redrive::ui
