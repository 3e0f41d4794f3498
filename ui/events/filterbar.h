// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/eventfilter.h"

#include <QWidget>

class QComboBox;
class QDateTimeEdit;
class QLineEdit;
class QMenu;
class QPushButton;
class QTimer;
class QToolButton;

namespace redrive::ui {

// The filter row above the events list. Passive: it turns what the user picked into an
// EventFilter (core's single definition of "which events") and says when it changed; typing
// is debounced so a search does not run per keystroke.
class FilterBar final : public QWidget {
    Q_OBJECT
public:
    explicit FilterBar(QWidget *parent = nullptr);

    [[nodiscard]] EventFilter filter() const;
    void setFilter(const EventFilter &filter); // does not emit
    void setFacets(const QStringList &sources, const QStringList &types, const QStringList &destinations);
    void setSavedViews(const QStringList &names);
    void focusSearch();
    [[nodiscard]] QLineEdit *searchEdit() const { return m_search; }

Q_SIGNALS:
    void filterChanged(const redrive::EventFilter &filter);
    void saveViewRequested(const QString &name);
    void savedViewChosen(const QString &name);
    void deleteViewRequested(const QString &name);

private:
    void changed();
    void changedSoon();
    void updateStatusButton();
    void timeRangeChosen(int index);

    QToolButton *m_status;
    QMenu *m_statusMenu;
    QComboBox *m_source;
    QComboBox *m_type;
    QComboBox *m_destination;
    QComboBox *m_origin;
    QComboBox *m_range;
    QDateTimeEdit *m_since;
    QDateTimeEdit *m_until;
    QLineEdit *m_search;
    QComboBox *m_views;
    QPushButton *m_saveView;
    QPushButton *m_clear;
    QTimer *m_debounce;
    QString m_category; // set by dead-letter groups; shown as a removable chip in the button
    QString m_deliveryStatus;
    bool m_silent = false;
};

} // namespace redrive::ui
