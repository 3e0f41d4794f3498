// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventdetailview.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"
#include "detail/eventdetailparts.h"
#include "detail/jsontreemodel.h"
#include "detail/keylinks.h"
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
    , m_replayDelivery(new QPushButton(QStringLiteral("Replay this delivery…")))
    , m_replayAction(new QAction(QStringLiteral("Replay this delivery…"), this))
    , m_scheduleNote(new QLabel)
    , m_attempts(new QTreeWidget)
    , m_excerpt(new QPlainTextEdit)
    , m_json(new JsonTreeModel(this))
    , m_jsonTree(new QTreeView)
    , m_raw(new QPlainTextEdit)
    , m_payloadNote(new QLabel)
    , m_headers(new QTableWidget)
    , m_notes(new QPlainTextEdit)
    , m_noteEdit(new QLineEdit)
    , m_addNote(new QPushButton(QStringLiteral("Add note")))
    , m_noteStatus(new QLabel)
    , m_audit(new QTreeWidget)
    , m_exportEvidence(new QPushButton(QStringLiteral("Export evidence…")))
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
    auto *deliveriesTitle = new QLabel(QStringLiteral("Deliveries"));
    deliveriesTitle->setStyleSheet(headingStyle());
    summaryLayout->addWidget(deliveriesTitle);
    m_deliveries->setObjectName(QStringLiteral("deliveryTree"));
    m_deliveries->setRootIsDecorated(false);
    m_deliveries->setHeaderLabels({ QStringLiteral("Destination"), QStringLiteral("Status"),
        QStringLiteral("Downstream"), QStringLiteral("Attempts"), QStringLiteral("Next attempt"),
        QStringLiteral("Reference"), QStringLiteral("Last failure") });
    m_deliveries->setMinimumHeight(90);
    m_deliveries->setAccessibleName(QStringLiteral("Deliveries"));
    summaryLayout->addWidget(m_deliveries);
    // Replay where the user is: the selected row, by button, context menu or Ctrl+R in the tree.
    m_replayDelivery->setObjectName(QStringLiteral("replayDeliveryButton"));
    m_replayDelivery->setAccessibleName(QStringLiteral("Replay this delivery"));
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
    m_tabs->addTab(summaryScroll, QStringLiteral("Summary"));

    // Attempts: the timeline, with the chosen attempt's response excerpt below.
    m_attempts->setObjectName(QStringLiteral("attemptTree"));
    m_attempts->setRootIsDecorated(false);
    m_attempts->setHeaderLabels({ QStringLiteral("#"), QStringLiteral("Destination"),
        QStringLiteral("Started"), QStringLiteral("Trigger"), QStringLiteral("HTTP"),
        QStringLiteral("Duration"), QStringLiteral("Category"), QStringLiteral("Explanation") });
    m_excerpt->setObjectName(QStringLiteral("responseExcerpt"));
    m_excerpt->setReadOnly(true);
    m_excerpt->setPlaceholderText(
        QStringLiteral("Select an attempt to see the start of the destination's response."));
    auto *attemptSplit = new QSplitter(Qt::Vertical);
    attemptSplit->addWidget(m_attempts);
    attemptSplit->addWidget(m_excerpt);
    attemptSplit->setStretchFactor(0, 3);
    attemptSplit->setStretchFactor(1, 1);
    connect(m_attempts, &QTreeWidget::currentItemChanged, this,
        [this](QTreeWidgetItem *current) { attemptChosen(current); });
    m_tabs->addTab(attemptSplit, QStringLiteral("Attempts"));

    // Payload: tree and raw text.
    m_jsonTree->setObjectName(QStringLiteral("jsonTree"));
    for (auto [widget, name] : { std::pair<QWidget *, const char *> { m_jsonTree, "Payload as a tree" },
             { m_raw, "Payload as text" }, { m_excerpt, "Attempt response" }, { m_attempts, "Attempts" },
             { m_notes, "Notes" }, { m_headers, "Request headers" }, { m_noteEdit, "New note" },
             { m_audit, "Notes and audit entries" } })
        widget->setAccessibleName(QLatin1String(name));
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
    auto *copyRaw = new QPushButton(QStringLiteral("Copy payload"));
    copyRaw->setObjectName(QStringLiteral("copyPayloadButton"));
    connect(copyRaw, &QPushButton::clicked, this,
        [this] { QApplication::clipboard()->setText(m_raw->toPlainText()); });
    auto *payload = new QWidget;
    auto *payloadLayout = new QVBoxLayout(payload);
    auto *payloadSplit = new QSplitter(Qt::Vertical);
    payloadSplit->addWidget(m_jsonTree);
    payloadSplit->addWidget(m_raw);
    payloadLayout->addWidget(m_payloadNote);
    payloadLayout->addWidget(payloadSplit, 1);
    payloadLayout->addWidget(copyRaw, 0, Qt::AlignRight);
    m_tabs->addTab(payload, QStringLiteral("Payload"));

    // Headers as stored: credential-bearing values were redacted by the receiver.
    m_headers->setObjectName(QStringLiteral("headersTable"));
    m_headers->setColumnCount(2);
    m_headers->setHorizontalHeaderLabels({ QStringLiteral("Header"), QStringLiteral("Value") });
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->hide();
    m_headers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tabs->addTab(m_headers, QStringLiteral("Headers"));

    // Notes and the audit trail.
    m_notes->setObjectName(QStringLiteral("notesText"));
    m_notes->setReadOnly(true);
    m_noteEdit->setObjectName(QStringLiteral("noteEdit"));
    m_noteEdit->setPlaceholderText(QStringLiteral("Add a note for the next person looking at this event"));
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
    m_audit->setHeaderLabels({ QStringLiteral("When"), QStringLiteral("Who"), QStringLiteral("Action"),
        QStringLiteral("Target"), QStringLiteral("Reason") });
    auto *notesPage = new QWidget;
    auto *notesLayout = new QVBoxLayout(notesPage);
    notesLayout->addWidget(new QLabel(QStringLiteral("Notes")));
    notesLayout->addWidget(m_notes, 1);
    auto *noteRow = new QHBoxLayout;
    noteRow->addWidget(m_noteEdit, 1);
    noteRow->addWidget(m_addNote);
    notesLayout->addLayout(noteRow);
    notesLayout->addWidget(m_noteStatus);
    m_exportEvidence->setObjectName(QStringLiteral("exportEvidenceButton"));
    m_exportEvidence->setToolTip(
        QStringLiteral("Save one JSON file, built and signed by the receiver, with this event, its "
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
    auditRow->addWidget(new QLabel(QStringLiteral("Audit trail")), 1);
    auditRow->addWidget(m_exportEvidence);
    notesLayout->addLayout(auditRow);
    notesLayout->addWidget(m_audit, 1);
    notesLayout->addWidget(m_evidenceStatus);
    m_tabs->addTab(notesPage, QStringLiteral("Notes && audit"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    // The replay action sits beside the title, outside the tabs: on a laptop screen the Summary
    // scrolls, and a button inside it could be out of sight (it acts on the selected delivery).
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_replayDelivery, 0, Qt::AlignTop);
    layout->addLayout(titleRow);
    layout->addWidget(m_message);
    layout->addWidget(m_tabs, 1);
    // Takes the spare height while the tabs are hidden, so the placeholder text sits at the top.
    layout->addStretch(0);
    setCanAddNotes(false);
    setCanExportEvidence(false);
    setEvidenceStatus(false, QString());
    setCanReplay(false);
    showEmpty();
}

EventDetailView::~EventDetailView() = default;

void EventDetailView::showEmpty()
{
    m_eventId = 0;
    m_title->setText(QStringLiteral("No event selected"));
    m_message->setText(
        QStringLiteral("Select an event in the list to see its deliveries, attempts and payload."));
    m_message->show();
    m_tabs->hide();
    m_replayDelivery->hide(); // no event, no delivery to replay
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
    }
    m_eventId = eventId;
    m_title->setText(QStringLiteral("Event %1").arg(eventId));
    m_message->setText(QStringLiteral("Loading…"));
    m_message->show();
}

void EventDetailView::showError(const QString &text)
{
    m_message->setText(text);
    m_message->show();
    m_tabs->hide();
    m_replayDelivery->hide(); // no event, no delivery to replay
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
    const bool can = m_canReplay && item && !onItsWay;
    m_replayAction->setEnabled(can);
    m_replayDelivery->setEnabled(can);
    m_replayDelivery->setToolTip(onItsWay
            ? QStringLiteral("This delivery is on its way already; there is nothing to replay yet.")
            : QStringLiteral("Preview and request a replay of the selected delivery (Ctrl+R in the list)."));
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
    m_title->setText(QStringLiteral("Event %1 · %2 · %3")
                         .arg(e.id)
                         .arg(e.source, e.type.isEmpty() ? QStringLiteral("(no type)") : e.type));
    m_message->hide();
    m_tabs->show();
    m_replayDelivery->setVisible(m_canReplay);

    m_keys->setKeys(d.keys);
    m_validation->showValidation(d);
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    addField(QStringLiteral("Status"), statusLook(e.status).label, QStringLiteral("fieldStatus"));
    addField(
        QStringLiteral("Downstream"), downstreamLook(e.downstream).label, QStringLiteral("fieldDownstream"));
    addField(QStringLiteral("Provider event ID"),
        e.providerEventId
            + (e.weakId ? QStringLiteral("  (derived from the body digest: the provider sent no id)")
                        : QString()),
        QStringLiteral("fieldProviderId"));
    addField(QStringLiteral("Received"), TimeFormat::display(e.receivedAt), QStringLiteral("fieldReceived"),
        TimeFormat::tooltip(e.receivedAt));
    if (e.occurredAt)
        addField(QStringLiteral("Occurred"), TimeFormat::display(*e.occurredAt),
            QStringLiteral("fieldOccurred"), TimeFormat::tooltip(*e.occurredAt));
    addField(QStringLiteral("Times seen"),
        e.seenCount > 1 ? QStringLiteral("%1 (last %2; duplicates were recorded, not processed again)")
                              .arg(e.seenCount)
                              .arg(TimeFormat::display(e.lastSeenAt))
                        : QStringLiteral("1"),
        QStringLiteral("fieldSeen"));
    addField(QStringLiteral("Origin"), originText(e.origin), QStringLiteral("fieldOrigin"),
        originExplanation(e.origin));
    addField(QStringLiteral("Verified by"),
        !d.verifiedBy.isEmpty()      ? d.verifiedBy
            : isReconciled(e.origin) ? QStringLiteral("— (read from the provider's API, not signed)")
                                     : QStringLiteral("— (not verified)"),
        QStringLiteral("fieldVerifiedBy"),
        QStringLiteral(
            "The secret whose signature matched; with several secrets configured this shows which one."));
    addField(QStringLiteral("Clock skew"),
        d.clockSkewMs ? QStringLiteral("%1 ms (%2)")
                            .arg(*d.clockSkewMs)
                            .arg(*d.clockSkewMs >= 0 ? QStringLiteral("provider's timestamp behind ours")
                                                     : QStringLiteral("provider's timestamp ahead of ours"))
                      : QStringLiteral("— (the scheme carries no timestamp)"),
        QStringLiteral("fieldClockSkew"));
    addField(QStringLiteral("Body"),
        QStringLiteral("%1 bytes, %2, SHA-256 %3")
            .arg(d.bodySize)
            .arg(d.contentType.isEmpty() ? QStringLiteral("no content type") : d.contentType, d.bodySha256),
        QStringLiteral("fieldBody"));
    if (!d.remoteAddr.isEmpty())
        addField(QStringLiteral("From"), d.remoteAddr, QStringLiteral("fieldRemote"));
    if (d.legalHold)
        addField(QStringLiteral("Legal hold"), QStringLiteral("yes — retention will not delete this event"),
            QStringLiteral("fieldLegalHold"));

    fillDeliveries(d, nowMs, schedules);
    fillAttempts(d);
    fillPayload(d);
    fillHeaders(d);
    fillNotes(d);
}

} // namespace redrive::ui
