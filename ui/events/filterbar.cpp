// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "filterbar.h"

#include "common/accessibleparts.h"
#include "common/rangeedits.h"
#include "common/statuspalette.h"
#include "domain/types.h"

#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

enum RangeChoice { AnyTime, LastHour, Last24Hours, Last7Days, Custom };
// The origin choices, in the combo's order, and the EventFilter value of each.
const char *const kOrigins[] = { "", "webhook", "reconciled" };

QComboBox *editableCombo(const QString &objectName, const QString &placeholder, QWidget *parent)
{
    auto *c = new QComboBox(parent);
    c->setObjectName(objectName);
    c->setEditable(true);
    c->setInsertPolicy(QComboBox::NoInsert);
    c->lineEdit()->setPlaceholderText(placeholder);
    c->lineEdit()->setClearButtonEnabled(true);
    c->setMinimumContentsLength(8);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    return c;
}

void fillCombo(QComboBox *c, const QStringList &values)
{
    const QString current = c->currentText();
    const QSignalBlocker block(c);
    c->clear();
    c->addItem(QString());
    c->addItems(values);
    c->setEditText(current);
}

} // namespace

FilterBar::FilterBar(QWidget *parent)
    : QWidget(parent)
    , m_status(new QToolButton(this))
    , m_statusMenu(new QMenu(this))
    , m_source(editableCombo(QStringLiteral("sourceFilter"), tr("Source"), this))
    , m_type(editableCombo(QStringLiteral("typeFilter"), tr("Type (prefix*)"), this))
    , m_destination(editableCombo(QStringLiteral("destinationFilter"), tr("Destination"), this))
    , m_origin(new QComboBox(this))
    , m_range(new QComboBox(this))
    , m_since(new QDateTimeEdit(this))
    , m_until(new QDateTimeEdit(this))
    , m_search(new QLineEdit(this))
    , m_views(new QComboBox(this))
    , m_saveView(new QPushButton(tr("Save view…"), this))
    , m_clear(new QPushButton(tr("Clear"), this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("filterBar"));
    m_status->setObjectName(QStringLiteral("statusFilter"));
    m_status->setPopupMode(QToolButton::InstantPopup);
    m_status->setMenu(m_statusMenu);
    for (const QString &s : allEventStatusNames()) {
        QAction *a = m_statusMenu->addAction(statusLook(Stored<EventStatus>::fromName(s)).label);
        a->setObjectName(QLatin1String("status_") + s);
        a->setData(s);
        a->setCheckable(true);
        connect(a, &QAction::toggled, this, [this] {
            updateStatusButton();
            changed();
        });
    }
    updateStatusButton();

    // How events came in: webhooks, or recovered by a reconciliation with the provider.
    m_origin->setObjectName(QStringLiteral("originFilter"));
    m_origin->setAccessibleName(tr("Origin filter"));
    m_origin->addItems({ tr("Any origin"), tr("Webhooks"), tr("Reconciled") });
    m_origin->setToolTip(tr("Reconciled: events a reconciliation run recovered from the provider's "
                            "API because their webhook never arrived"));
    m_range->setObjectName(QStringLiteral("timeRange"));
    m_range->addItems(
        { tr("Any time"), tr("Last hour"), tr("Last 24 hours"), tr("Last 7 days"), tr("Custom…") });
    prepareRangeEdits(m_since, m_until);
    for (QDateTimeEdit *e : { m_since, m_until })
        connect(e, &QDateTimeEdit::dateTimeChanged, this, &FilterBar::changedSoon);
    m_since->setObjectName(QStringLiteral("sinceEdit"));
    m_until->setObjectName(QStringLiteral("untilEdit"));
    m_since->setToolTip(tr("From (local time)"));
    m_until->setToolTip(tr("Until (local time)"));

    m_source->setAccessibleName(tr("Source filter"));
    m_type->setAccessibleName(tr("Event type filter"));
    m_destination->setAccessibleName(tr("Destination filter"));
    m_search->setObjectName(QStringLiteral("searchEdit"));
    m_search->setAccessibleName(tr("Search events"));
    m_search->setPlaceholderText(
        tr("Search event ID, provider ID, downstream reference or key, e.g. order:1042 (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    for (QComboBox *c : { m_source, m_type, m_destination })
        nameEditParts(c->lineEdit(), c->accessibleName());
    nameEditParts(m_search, m_search->accessibleName());
    m_search->setMinimumWidth(260);

    m_views->setObjectName(QStringLiteral("savedViews"));
    m_views->setToolTip(tr("Saved views"));
    m_saveView->setObjectName(QStringLiteral("saveViewButton"));
    m_clear->setObjectName(QStringLiteral("clearFilterButton"));

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, &FilterBar::changed);

    // Two rows, so the list and the detail panel both fit beside each other on a laptop screen.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    top->addWidget(m_search, 1);
    top->addWidget(m_views);
    top->addWidget(m_saveView);
    top->addWidget(m_clear);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status);
    bottom->addWidget(m_source, 1);
    bottom->addWidget(m_type, 1);
    bottom->addWidget(m_destination, 1);
    bottom->addWidget(m_origin);
    bottom->addWidget(m_range);
    bottom->addWidget(m_since);
    bottom->addWidget(m_until);
    layout->addLayout(top);
    layout->addLayout(bottom);

    for (QComboBox *c : { m_source, m_type, m_destination }) {
        connect(c->lineEdit(), &QLineEdit::textEdited, this, &FilterBar::changedSoon);
        connect(c->lineEdit(), &QLineEdit::returnPressed, this, &FilterBar::changed);
        connect(c, &QComboBox::activated, this, &FilterBar::changed);
    }
    connect(m_search, &QLineEdit::textEdited, this, &FilterBar::changedSoon);
    connect(m_search, &QLineEdit::returnPressed, this, &FilterBar::changed);
    connect(m_range, &QComboBox::activated, this, &FilterBar::timeRangeChosen);
    connect(m_origin, &QComboBox::activated, this, &FilterBar::changed);
    connect(m_clear, &QPushButton::clicked, this, [this] {
        setFilter({});
        changed();
    });
    connect(m_saveView, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(
            this, tr("Save view"), tr("Name of this view:"), QLineEdit::Normal, m_views->currentText(), &ok)
                                 .trimmed();
        if (ok && !name.isEmpty())
            Q_EMIT saveViewRequested(name);
    });
    connect(m_views, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            Q_EMIT savedViewChosen(m_views->itemText(index));
    });
    setSavedViews({});
}

void FilterBar::updateStatusButton()
{
    QStringList picked;
    for (QAction *a : m_statusMenu->actions()) {
        if (a->isChecked())
            picked.append(a->text());
    }
    // "dead · HTTP permanent" after opening a dead-letter group; "Any status" when nothing narrows.
    QStringList parts;
    if (!picked.isEmpty())
        parts.append(picked.join(QLatin1String(", ")));
    if (!m_deliveryStatus.isEmpty())
        parts.append(m_deliveryStatus);
    if (!m_category.isEmpty())
        parts.append(categoryLabel(Stored<FailureCategory>::fromName(m_category)));
    m_status->setText(parts.isEmpty() ? tr("Any status") : parts.join(QStringLiteral(" · ")));
}

void FilterBar::timeRangeChosen(int index)
{
    showCustomRange(m_since, m_until, index == Custom);
    changed();
}

EventFilter FilterBar::filter() const
{
    EventFilter f;
    for (QAction *a : m_statusMenu->actions()) {
        if (a->isChecked())
            f.statuses.append(a->data().toString());
    }
    f.source = m_source->currentText().trimmed();
    f.type = m_type->currentText().trimmed();
    f.destination = m_destination->currentText().trimmed();
    f.category = m_category;
    f.deliveryStatus = m_deliveryStatus;
    f.search = m_search->text().trimmed();
    f.origin = QLatin1String(kOrigins[qBound(0, m_origin->currentIndex(), int(std::size(kOrigins)) - 1)]);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    switch (m_range->currentIndex()) {
    case LastHour:
        f.sinceMs = now - 3'600'000;
        break;
    case Last24Hours:
        f.sinceMs = now - 86'400'000;
        break;
    case Last7Days:
        f.sinceMs = now - 7 * 86'400'000LL;
        break;
    case Custom:
        f.sinceMs = m_since->dateTime().toMSecsSinceEpoch();
        f.untilMs = m_until->dateTime().toMSecsSinceEpoch();
        break;
    default:
        break;
    }
    return f;
}

void FilterBar::setFilter(const EventFilter &f)
{
    m_silent = true;
    for (QAction *a : m_statusMenu->actions()) {
        const QSignalBlocker block(a);
        a->setChecked(f.statuses.contains(a->data().toString()));
    }
    m_source->setEditText(f.source);
    m_type->setEditText(f.type);
    m_destination->setEditText(f.destination);
    m_category = f.category;
    m_deliveryStatus = f.deliveryStatus;
    {
        const QSignalBlocker block(m_origin);
        int origin = 0;
        for (int i = 1; i < int(std::size(kOrigins)); ++i)
            origin = f.origin == QLatin1String(kOrigins[i]) ? i : origin;
        m_origin->setCurrentIndex(origin);
    }
    // A key filter (a saved view, a link) is shown as the search it equals, never hidden.
    m_search->setText(f.search.isEmpty() && !f.keyName.isEmpty() ? f.keyName + u':' + f.keyValue : f.search);
    if (f.sinceMs || f.untilMs) {
        m_range->setCurrentIndex(Custom);
        m_since->setVisible(true);
        m_until->setVisible(true);
        const QSignalBlocker b1(m_since);
        const QSignalBlocker b2(m_until);
        m_since->setDateTime(f.sinceMs ? QDateTime::fromMSecsSinceEpoch(*f.sinceMs)
                                       : QDateTime::currentDateTime().addDays(-1));
        m_until->setDateTime(f.untilMs ? QDateTime::fromMSecsSinceEpoch(*f.untilMs)
                                       : QDateTime::currentDateTime().addSecs(60));
    } else {
        m_range->setCurrentIndex(AnyTime);
        m_since->hide();
        m_until->hide();
    }
    updateStatusButton();
    m_silent = false;
}

void FilterBar::setFacets(
    const QStringList &sources, const QStringList &types, const QStringList &destinations)
{
    fillCombo(m_source, sources);
    fillCombo(m_type, types);
    fillCombo(m_destination, destinations);
}

void FilterBar::setSavedViews(const QStringList &names)
{
    const QSignalBlocker block(m_views);
    m_views->clear();
    m_views->addItem(tr("Saved views"));
    m_views->addItems(names);
    m_views->setEnabled(!names.isEmpty());
}

void FilterBar::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void FilterBar::changedSoon()
{
    if (!m_silent)
        m_debounce->start();
}

void FilterBar::changed()
{
    if (m_silent)
        return;
    m_debounce->stop();
    Q_EMIT filterChanged(filter());
}

} // namespace redrive::ui
