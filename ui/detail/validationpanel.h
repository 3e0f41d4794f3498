// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/eventdetail.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace redrive::ui {

// A quarantined event's schema errors on the detail's summary: where in the body (the JSON
// pointer) and what is wrong, as plain text, and "Revalidate" for the roles that may (it asks
// the receiver to check the event again against the schemas it now has). Hidden for every
// event that is not quarantined.
class ValidationPanel final : public QWidget {
    Q_OBJECT
public:
    explicit ValidationPanel(QWidget *parent = nullptr);

    void showValidation(const EventDetail &detail);
    void setCanRevalidate(bool can);
    void setBusy(bool busy, const QString &message = {});

Q_SIGNALS:
    void revalidateRequested(qint64 eventId);

private:
    qint64 m_eventId = 0;
    bool m_canRevalidate = false;
    QLabel *m_title;
    QTreeWidget *m_errors;
    QPushButton *m_revalidate;
    QLabel *m_status;
};

} // namespace redrive::ui
