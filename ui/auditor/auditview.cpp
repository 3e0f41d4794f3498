// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditview.h"

#include "common/accessibleparts.h"
#include "common/rangeedits.h"
#include "common/statuspalette.h"
#include "common/tablepage.h"
#include "common/warningbanner.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

enum RangeChoice { AnyTime, Last24Hours, Last7Days, Last30Days, Custom };

QLineEdit *filterEdit(const char *objectName, const QString &label, const QString &tip, QWidget *parent)
{
    auto *e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(objectName));
    e->setPlaceholderText(label);
    e->setAccessibleName(label);
    nameEditParts(e, label);
    e->setToolTip(tip);
    e->setClearButtonEnabled(true);
    return e;
}

QString colourFor(AuditView::Health health)
{
    switch (health) {
    case AuditView::Health::Good:
        return toneTextStyle(Tone::Good);
    case AuditView::Health::Bad:
        return toneTextStyle(Tone::Bad, true);
    case AuditView::Health::Unknown:
        break;
    }
    return {};
}

} // namespace

AuditView::AuditView(QWidget *parent)
    : QWidget(parent)
    , m_actor(filterEdit("auditActorFilter", tr("Actor"), tr("Exact token name"), this))
    , m_action(filterEdit("auditActionFilter", tr("Action"), tr("Exact action, e.g. replay_requested"), this))
    , m_target(
          filterEdit("auditTargetFilter", tr("Target"), tr("Exact target, e.g. replay:12 or event:7"), this))
    , m_text(filterEdit(
          "auditTextFilter", tr("Text in reason"), tr("Entries whose reason contains this text"), this))
    , m_range(new QComboBox(this))
    , m_since(new QDateTimeEdit(this))
    , m_until(new QDateTimeEdit(this))
    , m_clear(new QPushButton(tr("Clear"), this))
    , m_keyWarning(new WarningBanner(this))
    , m_trustKey(new QPushButton(tr("Trust new key…"), this))
    , m_chain(new QLabel(this))
    , m_checkpoints(new QLabel(this))
    , m_message(new QLabel(this))
    , m_saveCheckpoint(new QPushButton(tr("Save checkpoint"), this))
    , m_exportCsv(new QPushButton(tr("Export CSV…"), this))
    , m_exportEvidence(new QPushButton(tr("Export evidence…"), this))
    , m_table(new QTableView(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("auditPage"));
    m_range->setObjectName(QStringLiteral("auditTimeRange"));
    m_range->setAccessibleName(tr("Time range"));
    m_range->addItems(
        { tr("Any time"), tr("Last 24 hours"), tr("Last 7 days"), tr("Last 30 days"), tr("Custom…") });
    prepareRangeEdits(m_since, m_until);
    for (QDateTimeEdit *e : { m_since, m_until })
        connect(e, &QDateTimeEdit::dateTimeChanged, this, [this] { m_debounce->start(); });
    m_since->setObjectName(QStringLiteral("auditSinceEdit"));
    m_until->setObjectName(QStringLiteral("auditUntilEdit"));
    m_clear->setObjectName(QStringLiteral("auditClearFilter"));
    m_clear->setAccessibleName(tr("Clear the audit filters"));

    m_keyWarning->setObjectName(QStringLiteral("auditKeyWarning"));
    speakAsStatus(m_keyWarning, tr("Audit key warning"));
    m_trustKey->setObjectName(QStringLiteral("auditTrustKeyButton"));
    m_trustKey->setAccessibleName(tr("Trust the receiver's new audit key"));
    m_trustKey->hide();
    for (QLabel *l : { m_chain, m_checkpoints, m_message }) {
        l->setTextFormat(Qt::PlainText); // actors, reasons and problems come from the database
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        l->setFocusPolicy(Qt::StrongFocus); // readable by keyboard and screen readers
    }
    m_chain->setObjectName(QStringLiteral("auditStatus"));
    speakAsStatus(m_chain, tr("Audit chain status"));
    m_chain->setText(tr("Checking the chain…"));
    m_checkpoints->setObjectName(QStringLiteral("auditCheckpointStatus"));
    speakAsStatus(m_checkpoints, tr("Saved checkpoints"));
    m_message->setObjectName(QStringLiteral("auditMessage"));
    speakAsStatus(m_message, tr("Last audit action"));
    m_message->hide();
    m_saveCheckpoint->setObjectName(QStringLiteral("saveCheckpointButton"));
    m_saveCheckpoint->setAccessibleName(tr("Save a checkpoint of the audit chain"));
    m_saveCheckpoint->setToolTip(
        tr("Keep the chain's current head on this computer; later refreshes prove nothing up to it changed"));
    m_exportCsv->setObjectName(QStringLiteral("auditCsvButton"));
    m_exportCsv->setAccessibleName(tr("Export the filtered audit entries as CSV"));
    m_exportEvidence->setObjectName(QStringLiteral("auditEvidenceButton"));
    m_exportEvidence->setAccessibleName(tr("Export audit evidence for the time range"));
    m_exportEvidence->setToolTip(
        tr("The entries of the chosen time range, linked to the receiver's signed checkpoint, with a "
           "README on checking them with redrive --verify-evidence"));

    TablePage::setupTableView(m_table, QStringLiteral("auditTable"), tr("Audit log entries"));

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, &AuditView::filterChanged);

    auto *filters = new QHBoxLayout;
    for (QLineEdit *e : { m_actor, m_action, m_target, m_text }) {
        filters->addWidget(e, 1);
        connect(e, &QLineEdit::textEdited, this, [this] { m_debounce->start(); });
        connect(e, &QLineEdit::returnPressed, this, [this] {
            m_debounce->stop();
            Q_EMIT filterChanged();
        });
    }
    filters->addWidget(m_range);
    filters->addWidget(m_since);
    filters->addWidget(m_until);
    filters->addWidget(m_clear);
    auto *status = new QHBoxLayout;
    auto *labels = new QVBoxLayout;
    labels->addWidget(m_chain);
    labels->addWidget(m_checkpoints);
    labels->addWidget(m_message);
    status->addLayout(labels, 1);
    status->addWidget(m_saveCheckpoint);
    status->addWidget(m_exportCsv);
    status->addWidget(m_exportEvidence);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyWarning, 1);
    keyRow->addWidget(m_trustKey);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(keyRow);
    layout->addLayout(status);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);

    connect(m_range, &QComboBox::activated, this, &AuditView::timeRangeChosen);
    connect(m_clear, &QPushButton::clicked, this, [this] {
        for (QLineEdit *e : { m_actor, m_action, m_target, m_text })
            e->clear();
        m_range->setCurrentIndex(AnyTime);
        timeRangeChosen(AnyTime);
    });
    connect(m_saveCheckpoint, &QPushButton::clicked, this, &AuditView::saveCheckpointRequested);
    connect(m_exportCsv, &QPushButton::clicked, this, &AuditView::exportCsvRequested);
    connect(m_exportEvidence, &QPushButton::clicked, this, &AuditView::exportEvidenceRequested);
    connect(m_trustKey, &QPushButton::clicked, this, &AuditView::trustNewKeyRequested);
}

void AuditView::reset()
{
    m_debounce->stop();
    for (QLineEdit *e : { m_actor, m_action, m_target, m_text })
        e->clear();
    m_range->setCurrentIndex(AnyTime);
    showCustomRange(m_since, m_until, false);
    setChainStatus(tr("Checking the chain…"), Health::Unknown);
    m_checkpoints->clear();
    m_checkpoints->setStyleSheet(QString());
    m_checkpoints->show();
    setKeyWarnings({}, false);
    setMessage(QString());
}

void AuditView::timeRangeChosen(int index)
{
    showCustomRange(m_since, m_until, index == Custom);
    m_debounce->stop();
    Q_EMIT filterChanged();
}

std::pair<qint64, qint64> AuditView::range(qint64 nowMs) const
{
    constexpr qint64 day = 86'400'000;
    switch (m_range->currentIndex()) {
    case Last24Hours:
        return { nowMs - day, nowMs + 1 };
    case Last7Days:
        return { nowMs - 7 * day, nowMs + 1 };
    case Last30Days:
        return { nowMs - 30 * day, nowMs + 1 };
    case Custom:
        return { m_since->dateTime().toMSecsSinceEpoch(), m_until->dateTime().toMSecsSinceEpoch() };
    default:
        return { 0, nowMs + 1 };
    }
}

audit::AuditQuery AuditView::filter(qint64 nowMs) const
{
    audit::AuditQuery q;
    q.actor = m_actor->text().trimmed();
    q.action = m_action->text().trimmed();
    q.target = m_target->text().trimmed();
    q.text = m_text->text().trimmed();
    if (m_range->currentIndex() != AnyTime) {
        const auto [since, until] = range(nowMs);
        q.sinceMs = since;
        // A relative range stays open at the end, so live refresh keeps adding new entries.
        if (m_range->currentIndex() == Custom)
            q.untilMs = until;
    }
    return q;
}

void AuditView::setChainStatus(const QString &text, Health health)
{
    m_chain->setText(text);
    m_chain->setStyleSheet(colourFor(health));
}

void AuditView::setCheckpointStatus(const QString &text, Health health)
{
    m_checkpoints->setText(text);
    m_checkpoints->setStyleSheet(colourFor(health));
    m_checkpoints->setVisible(!text.isEmpty());
}

void AuditView::setKeyWarnings(const QStringList &warnings, bool offerNewKey)
{
    m_keyWarning->showWarnings(warnings);
    m_trustKey->setVisible(!warnings.isEmpty() && offerNewKey);
}

void AuditView::setMessage(const QString &text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

QString AuditView::chainStatus() const
{
    return m_chain->text();
}

QString AuditView::checkpointStatus() const
{
    return m_checkpoints->text();
}

void AuditView::setActionsEnabled(bool saveCheckpoint, bool exportEvidence)
{
    m_saveCheckpoint->setEnabled(saveCheckpoint);
    m_exportEvidence->setEnabled(exportEvidence);
}

} // namespace redrive::ui
