// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventdetailview.h"

#include "common/localeformat.h"
#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"
#include "detail/eventdetailparts.h"
#include "detail/jsontreemodel.h"
#include "detail/keylinks.h"
#include "detail/redactionbar.h"
#include "detail/schedulenote.h"
#include "detail/validationpanel.h"
#include "events/originmark.h"
#include "util/headers.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace redrive::ui {
using namespace detailparts;

EventDetailView::EventDetailView(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_message(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_summary(new QWidget)
    , m_form(new QFormLayout)
    , m_keys(new KeyLinks)
    , m_validation(new ValidationPanel)
    , m_deliveries(new QTreeWidget)
    , m_replayDelivery(new QPushButton(tr("Replay this delivery…")))
    , m_replayAction(new QAction(tr("Replay this delivery…"), this))
    , m_resolveDelivery(new QPushButton(tr("Mark resolved…")))
    , m_resolveAction(new QAction(tr("Mark resolved…"), this))
    , m_scheduleNote(new QLabel)
    , m_attempts(new QTreeWidget)
    , m_excerpt(new QPlainTextEdit)
    , m_json(new JsonTreeModel(this))
    , m_jsonTree(new QTreeView)
    , m_raw(new QPlainTextEdit)
    , m_payloadNote(new QLabel)
    , m_redaction(new RedactionBar)
    , m_headers(new QTableWidget)
    , m_notes(new QPlainTextEdit)
    , m_noteEdit(new QLineEdit)
    , m_addNote(new QPushButton(tr("Add note")))
    , m_noteStatus(new QLabel)
    , m_audit(new QTreeWidget)
    , m_exportEvidence(new QPushButton(tr("Export evidence…")))
    , m_evidenceStatus(new QLabel)
{
    setObjectName(QStringLiteral("eventDetail"));
    m_title->setObjectName(QStringLiteral("detailTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("detailMessage"));
    m_message->setTextFormat(Qt::PlainText);
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_tabs->setObjectName(QStringLiteral("detailTabs"));

    // Summary: envelope fields, then deliveries.
    auto *summaryLayout = new QVBoxLayout(m_summary);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignRight);
    summaryLayout->addLayout(m_form);
    summaryLayout->addWidget(m_keys);
    summaryLayout->addWidget(m_validation);
    auto *deliveriesTitle = new QLabel(tr("Deliveries"));
    deliveriesTitle->setStyleSheet(headingStyle());
    summaryLayout->addWidget(deliveriesTitle);
    m_deliveries->setObjectName(QStringLiteral("deliveryTree"));
    m_deliveries->setRootIsDecorated(false);
    m_deliveries->setHeaderLabels({ tr("Destination"), tr("Status"), tr("Downstream"), tr("Attempts"),
        tr("Next attempt"), tr("Reference"), tr("Last failure") });
    m_deliveries->setMinimumHeight(90);
    m_deliveries->setAccessibleName(tr("Deliveries"));
    summaryLayout->addWidget(m_deliveries);
    // Replay where the user is: the selected row, by button, context menu or Ctrl+R in the tree.
    m_replayDelivery->setObjectName(QStringLiteral("replayDeliveryButton"));
    m_replayDelivery->setAccessibleName(tr("Replay this delivery"));
    m_replayAction->setObjectName(QStringLiteral("replayDeliveryAction"));
    m_replayAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_replayAction->setShortcutContext(Qt::WidgetShortcut);
    m_deliveries->addAction(m_replayAction);
    m_deliveries->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto replayCurrent = [this] {
        const QTreeWidgetItem *item = m_deliveries->currentItem();
        if (m_replayAction->isEnabled() && item)
            Q_EMIT replayDeliveryRequested(item->data(DDestination, Qt::UserRole).toLongLong());
    };
    connect(m_replayAction, &QAction::triggered, this, replayCurrent);
    connect(m_replayDelivery, &QPushButton::clicked, this, replayCurrent);
    connect(m_deliveries, &QTreeWidget::currentItemChanged, this, &EventDetailView::updateReplayDelivery);
    // A dead letter handled another way: resolved where the user is, like the replay.
    m_resolveDelivery->setObjectName(QStringLiteral("resolveDeliveryButton"));
    m_resolveDelivery->setAccessibleName(tr("Mark this dead letter resolved"));
    m_resolveDelivery->setToolTip(
        tr("It was handled another way: it leaves the dead letters and is never sent again."));
    m_resolveAction->setObjectName(QStringLiteral("resolveDeliveryAction"));
    m_deliveries->addAction(m_resolveAction);
    auto resolveCurrent = [this] {
        const QTreeWidgetItem *item = m_deliveries->currentItem();
        if (m_resolveAction->isEnabled() && item)
            Q_EMIT resolveDeliveryRequested(item->data(DDestination, Qt::UserRole).toLongLong());
    };
    connect(m_resolveAction, &QAction::triggered, this, resolveCurrent);
    connect(m_resolveDelivery, &QPushButton::clicked, this, resolveCurrent);
    m_scheduleNote->setObjectName(QStringLiteral("scheduleNote"));
    m_scheduleNote->setTextFormat(Qt::PlainText);
    m_scheduleNote->setWordWrap(true);
    m_scheduleNote->setStyleSheet(toneTextStyle(Tone::Muted));
    summaryLayout->addWidget(m_scheduleNote);
    summaryLayout->addStretch(1);
    auto *summaryScroll = new QScrollArea;
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    m_tabs->addTab(summaryScroll, tr("Summary"));

    // Attempts: the timeline, with the chosen attempt's response excerpt below.
    m_attempts->setObjectName(QStringLiteral("attemptTree"));
    m_attempts->setRootIsDecorated(false);
    m_attempts->setHeaderLabels({ tr("#"), tr("Destination"), tr("Started"), tr("Trigger"), tr("HTTP"),
        tr("Duration"), tr("Category"), tr("Explanation") });
    m_excerpt->setObjectName(QStringLiteral("responseExcerpt"));
    m_excerpt->setReadOnly(true);
    m_excerpt->setPlaceholderText(tr("Select an attempt to see the start of the destination's response."));
    auto *attemptSplit = new QSplitter(Qt::Vertical);
    attemptSplit->addWidget(m_attempts);
    attemptSplit->addWidget(m_excerpt);
    attemptSplit->setStretchFactor(0, 3);
    attemptSplit->setStretchFactor(1, 1);
    connect(m_attempts, &QTreeWidget::currentItemChanged, this,
        [this](QTreeWidgetItem *current) { attemptChosen(current); });
    m_tabs->addTab(attemptSplit, tr("Attempts"));

    // Payload: tree and raw text.
    m_jsonTree->setObjectName(QStringLiteral("jsonTree"));
    for (auto [widget, name] : { std::pair<QWidget *, const char *> { m_jsonTree,
                                     QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "Payload as a tree") },
             { m_raw, QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "Payload as text") },
             { m_excerpt, QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "Attempt response") },
             { m_attempts, QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "Attempts") },
             { m_notes, QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "Notes") },
             { m_headers, QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "Request headers") },
             { m_noteEdit, QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "New note") },
             { m_audit, QT_TRANSLATE_NOOP("redrive::ui::EventDetailView", "Notes and audit entries") } })
        widget->setAccessibleName(tr(name));
    m_jsonTree->setModel(m_json);
    m_jsonTree->setUniformRowHeights(true);
    m_raw->setObjectName(QStringLiteral("rawPayload"));
    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_raw->setFont(mono);
    m_excerpt->setFont(mono);
    m_payloadNote->setTextFormat(Qt::PlainText);
    m_payloadNote->setWordWrap(true);
    auto *copyRaw = new QPushButton(tr("Copy payload"));
    copyRaw->setObjectName(QStringLiteral("copyPayloadButton"));
    connect(copyRaw, &QPushButton::clicked, this,
        [this] { QApplication::clipboard()->setText(m_raw->toPlainText()); });
    auto *payload = new QWidget;
    auto *payloadLayout = new QVBoxLayout(payload);
    auto *payloadSplit = new QSplitter(Qt::Vertical);
    payloadSplit->addWidget(m_jsonTree);
    payloadSplit->addWidget(m_raw);
    payloadLayout->addWidget(m_redaction);
    payloadLayout->addWidget(m_payloadNote);
    payloadLayout->addWidget(payloadSplit, 1);
    payloadLayout->addWidget(copyRaw, 0, Qt::AlignRight);
    m_tabs->addTab(payload, tr("Payload"));

    // Headers as stored: credential-bearing values were redacted by the receiver.
    m_headers->setObjectName(QStringLiteral("headersTable"));
    m_headers->setColumnCount(2);
    m_headers->setHorizontalHeaderLabels({ tr("Header"), tr("Value") });
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->hide();
    m_headers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tabs->addTab(m_headers, tr("Headers"));

    // Notes and the audit trail.
    m_notes->setObjectName(QStringLiteral("notesText"));
    m_notes->setReadOnly(true);
    m_noteEdit->setObjectName(QStringLiteral("noteEdit"));
    m_noteEdit->setPlaceholderText(tr("Add a note for the next person looking at this event"));
    m_addNote->setObjectName(QStringLiteral("addNoteButton"));
    m_noteStatus->setObjectName(QStringLiteral("noteStatus"));
    m_noteStatus->setTextFormat(Qt::PlainText);
    m_noteStatus->setWordWrap(true);
    connect(m_addNote, &QPushButton::clicked, this, [this] {
        const QString text = m_noteEdit->text().trimmed();
        if (!text.isEmpty() && m_eventId > 0)
            Q_EMIT noteSubmitted(m_eventId, text);
    });
    connect(m_noteEdit, &QLineEdit::returnPressed, m_addNote, &QPushButton::click);
    m_audit->setObjectName(QStringLiteral("auditTree"));
    m_audit->setRootIsDecorated(false);
    m_audit->setHeaderLabels({ tr("When"), tr("Who"), tr("Action"), tr("Target"), tr("Reason") });
    auto *notesPage = new QWidget;
    auto *notesLayout = new QVBoxLayout(notesPage);
    notesLayout->addWidget(new QLabel(tr("Notes")));
    notesLayout->addWidget(m_notes, 1);
    auto *noteRow = new QHBoxLayout;
    noteRow->addWidget(m_noteEdit, 1);
    noteRow->addWidget(m_addNote);
    notesLayout->addLayout(noteRow);
    notesLayout->addWidget(m_noteStatus);
    m_exportEvidence->setObjectName(QStringLiteral("exportEvidenceButton"));
    m_exportEvidence->setToolTip(
        tr("Save one JSON file, built and signed by the receiver, with this event, its "
           "body, deliveries, attempts, notes, the audit entries that touched it and a "
           "signed checkpoint of the audit log. The export is recorded in the audit log; "
           "redrive --verify-evidence FILE re-checks the file anywhere."));
    m_evidenceStatus->setObjectName(QStringLiteral("evidenceStatus"));
    m_evidenceStatus->setTextFormat(Qt::PlainText);
    m_evidenceStatus->setWordWrap(true);
    m_evidenceStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_exportEvidence, &QPushButton::clicked, this, [this] {
        if (m_eventId > 0)
            Q_EMIT exportEvidenceRequested(m_eventId);
    });
    auto *auditRow = new QHBoxLayout;
    auditRow->addWidget(new QLabel(tr("Audit trail")), 1);
    auditRow->addWidget(m_exportEvidence);
    notesLayout->addLayout(auditRow);
    notesLayout->addWidget(m_audit, 1);
    notesLayout->addWidget(m_evidenceStatus);
    m_tabs->addTab(notesPage, tr("Notes && audit"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    // The replay action sits beside the title, outside the tabs: on a laptop screen the Summary
    // scrolls, and a button inside it could be out of sight (it acts on the selected delivery).
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_replayDelivery, 0, Qt::AlignTop);
    titleRow->addWidget(m_resolveDelivery, 0, Qt::AlignTop);
    layout->addLayout(titleRow);
    layout->addWidget(m_message);
    layout->addWidget(m_tabs, 1);
    // Takes the spare height while the tabs are hidden, so the placeholder text sits at the top.
    layout->addStretch(0);
    setCanAddNotes(false);
    setCanExportEvidence(false);
    setEvidenceStatus(false, QString());
    setCanReplay(false);
    setCanResolve(false);
    showEmpty();
}

EventDetailView::~EventDetailView() = default;

void EventDetailView::showEmpty()
{
    m_eventId = 0;
    m_title->setText(tr("No event selected"));
    m_message->setText(tr("Select an event in the list to see its deliveries, attempts and payload."));
    m_message->show();
    m_tabs->hide();
    m_replayDelivery->hide(); // no event, no delivery to replay
    m_resolveDelivery->hide();
}

void EventDetailView::showLoading(qint64 eventId)
{
    // Another event: the previous one's rows must not be acted on (a replay from a stale row
    // would replay the wrong delivery). A reload of the same event keeps its rows.
    if (eventId != m_eventId) {
        m_deliveries->clear();
        m_attempts->clear();
        m_replayDelivery->setEnabled(false);
        m_replayAction->setEnabled(false);
        m_resolveDelivery->setEnabled(false);
        m_resolveAction->setEnabled(false);
    }
    m_eventId = eventId;
    m_title->setText(tr("Event %1").arg(eventId));
    m_message->setText(tr("Loading…"));
    m_message->show();
}

void EventDetailView::showError(const QString &text)
{
    m_message->setText(text);
    m_message->show();
    m_tabs->hide();
    m_replayDelivery->hide(); // no event, no delivery to replay
    m_resolveDelivery->hide();
}

void EventDetailView::setCanAddNotes(bool can)
{
    m_noteEdit->setVisible(can);
    m_addNote->setVisible(can);
}

void EventDetailView::setCanReplay(bool can)
{
    m_canReplay = can;
    m_replayDelivery->setVisible(can && m_tabs->isVisibleTo(this));
    updateReplayDelivery();
}

void EventDetailView::updateReplayDelivery()
{
    const QTreeWidgetItem *item = m_deliveries->currentItem();
    // The row carries its parsed status as an int, -1 when the stored name is unknown.
    const int stored = item ? item->data(DStatus, Qt::UserRole).toInt() : -1;
    const auto status = stored >= 0 ? std::optional(DeliveryStatus(stored)) : std::nullopt;
    // Pending and in-flight deliveries are on their way already; the receiver would refuse them.
    const bool onItsWay = status == DeliveryStatus::Pending || status == DeliveryStatus::InFlight;
    // A resolved dead letter was handled by hand: sending it now would act twice.
    const bool resolved = stored == int(DeliveryStatus::Resolved);
    const bool can = m_canReplay && item && !onItsWay && !resolved;
    m_replayAction->setEnabled(can);
    m_replayDelivery->setEnabled(can);
    m_replayDelivery->setToolTip(onItsWay
            ? tr("This delivery is on its way already; there is nothing to replay yet.")
            : resolved ? tr("This dead letter was resolved by hand; a replay would act twice.")
                       : tr("Preview and request a replay of the selected delivery (Ctrl+R in the list)."));
    const bool dead = m_canResolve && item && stored == int(DeliveryStatus::Dead);
    m_resolveAction->setEnabled(dead);
    m_resolveDelivery->setEnabled(dead);
}

void EventDetailView::setCanResolve(bool can)
{
    m_canResolve = can;
    m_resolveDelivery->setVisible(can && m_tabs->isVisibleTo(this));
    m_resolveAction->setVisible(can);
    updateReplayDelivery();
}

void EventDetailView::setNoteBusy(bool busy, const QString &message)
{
    m_addNote->setEnabled(!busy);
    m_noteEdit->setEnabled(!busy);
    m_noteStatus->setText(message);
    if (!busy && message.isEmpty())
        m_noteEdit->clear();
}

void EventDetailView::setCanExportEvidence(bool can)
{
    m_exportEvidence->setVisible(can);
}

void EventDetailView::setEvidenceStatus(bool busy, const QString &message)
{
    m_exportEvidence->setEnabled(!busy);
    m_evidenceStatus->setText(message);
    m_evidenceStatus->setVisible(!message.isEmpty());
}

void EventDetailView::addField(
    const QString &label, const QString &value, const QString &objectName, const QString &tooltip)
{
    QLabel *l = plainLabel(value, m_summary);
    l->setObjectName(objectName);
    l->setToolTip(plainToolTip(tooltip));
    m_form->addRow(label, l);
}

void EventDetailView::showDetail(
    const EventDetail &d, qint64 nowMs, const std::optional<RetrySchedules> &schedules)
{
    m_eventId = d.row.id;
    const EventRow &e = d.row;
    m_title->setText(
        tr("Event %1 · %2 · %3").arg(e.id).arg(e.source, e.type.isEmpty() ? tr("(no type)") : e.type));
    m_message->hide();
    m_tabs->show();
    m_replayDelivery->setVisible(m_canReplay);
    m_resolveDelivery->setVisible(m_canResolve);

    m_keys->setKeys(d.keys);
    m_validation->showValidation(d);
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    addField(tr("Status"), statusLook(e.status).label, QStringLiteral("fieldStatus"));
    addField(tr("Downstream"), downstreamLook(e.downstream).label, QStringLiteral("fieldDownstream"));
    addField(tr("Provider event ID"),
        e.providerEventId
            + (e.weakId ? tr("  (derived from the body digest: the provider sent no id)") : QString()),
        QStringLiteral("fieldProviderId"));
    addField(tr("Received"), TimeFormat::display(e.receivedAt), QStringLiteral("fieldReceived"),
        TimeFormat::tooltip(e.receivedAt));
    if (e.occurredAt)
        addField(tr("Occurred"), TimeFormat::display(*e.occurredAt), QStringLiteral("fieldOccurred"),
            TimeFormat::tooltip(*e.occurredAt));
    addField(tr("Times seen"),
        e.seenCount > 1 ? tr("%L1 (last %2; duplicates were recorded, not processed again)")
                              .arg(e.seenCount)
                              .arg(TimeFormat::display(e.lastSeenAt))
                        : LocaleFormat::count(e.seenCount),
        QStringLiteral("fieldSeen"));
    addField(tr("Origin"), originText(e.origin), QStringLiteral("fieldOrigin"), originExplanation(e.origin));
    addField(tr("Verified by"),
        !d.verifiedBy.isEmpty()      ? d.verifiedBy
            : isReconciled(e.origin) ? tr("— (read from the provider's API, not signed)")
                                     : tr("— (not verified)"),
        QStringLiteral("fieldVerifiedBy"),
        tr("The secret whose signature matched; with several secrets configured this shows which one."));
    addField(tr("Clock skew"),
        d.clockSkewMs ? tr("%L1 ms (%2)")
                            .arg(*d.clockSkewMs)
                            .arg(*d.clockSkewMs >= 0 ? tr("provider's timestamp behind ours")
                                                     : tr("provider's timestamp ahead of ours"))
                      : tr("— (the scheme carries no timestamp)"),
        QStringLiteral("fieldClockSkew"));
    addField(tr("Body"),
        tr("%Ln byte(s), %1, SHA-256 %2", nullptr, int(d.bodySize))
            .arg(d.contentType.isEmpty() ? tr("no content type") : d.contentType, d.bodySha256),
        QStringLiteral("fieldBody"));
    if (!d.remoteAddr.isEmpty())
        addField(tr("From"), d.remoteAddr, QStringLiteral("fieldRemote"));
    if (d.legalHold)
        addField(tr("Legal hold"), tr("yes — retention will not delete this event"),
            QStringLiteral("fieldLegalHold"));

    fillDeliveries(d, nowMs, schedules);
    fillAttempts(d);
    fillPayload(d);
    fillHeaders(d);
    fillNotes(d);
}

} // namespace redrive::ui
