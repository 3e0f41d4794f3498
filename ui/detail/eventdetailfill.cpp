// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// EventDetailView filled from an EventDetail: deliveries, attempts, payload, headers, notes.
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
#include "eventdetailview.h"
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

void EventDetailView::fillDeliveries(
    const EventDetail &d, qint64 nowMs, const std::optional<RetrySchedules> &schedules)
{
    m_deliveries->clear();
    QStringList notes;
    for (const DeliveryRecord &rec : d.deliveries) {
        const DeliverySummary &s = rec.summary;
        auto *item = new QTreeWidgetItem(m_deliveries);
        item->setText(DDestination, s.destination);
        item->setData(DDestination, Qt::UserRole, s.id);
        item->setData(DStatus, Qt::UserRole, s.status.isKnown() ? int(*s.status.value()) : -1);
        paintChip(item, DStatus, statusLook(s.status));
        paintChip(item, DDownstream, downstreamLook(s.downstream));
        item->setData(DDownstream, Qt::UserRole, toString(s.downstream));
        item->setText(DAttempts, LocaleFormat::count(s.attemptCount));
        if (s.nextAttemptAt) {
            const qint64 in = *s.nextAttemptAt - nowMs;
            const QString when = TimeFormat::display(*s.nextAttemptAt);
            item->setText(DNext,
                in >= 0 ? tr("%1 (in %2)").arg(when, TimeFormat::duration(in))
                        : tr("%1 (overdue by %2)").arg(when, TimeFormat::duration(-in)));
            item->setToolTip(DNext, TimeFormat::tooltip(*s.nextAttemptAt));
        } else {
            item->setText(DNext, QStringLiteral("—"));
        }
        item->setText(DReference, s.downstreamRef.isEmpty() ? QStringLiteral("—") : s.downstreamRef);
        // Why it failed, on the Summary: the first answer support needs, not a tab away.
        if (s.status != DeliveryStatus::Succeeded && !s.lastCategory.isNull()
            && s.lastCategory != FailureCategory::None) {
            const QString why = rec.lastError.isEmpty()
                ? categoryLabel(s.lastCategory)
                : QStringLiteral("%1 — %2").arg(categoryLabel(s.lastCategory), rec.lastError.simplified());
            item->setText(DLastFailure, why);
            item->setToolTip(DLastFailure, plainToolTip(why));
        } else {
            item->setText(DLastFailure, QStringLiteral("—"));
        }
        QString tip = describe(s.downstream);
        if (s.downstream == DownstreamState::OutcomeUnknown)
            tip = tr("The last request was fully sent but no answer came in time: the destination may have "
                     "acted on it. A replay could apply it twice.");
        else if (s.downstream == DownstreamState::Failed)
            tip = tr("Dead-lettered: %1%2")
                      .arg(categoryLabel(s.lastCategory),
                          rec.lastError.isEmpty() ? QString() : QStringLiteral(" — ") + rec.lastError);
        item->setToolTip(DDownstream, plainToolTip(tip));
        item->setToolTip(DDestination,
            plainToolTip(
                tr("Idempotency key %1 (the same on every attempt and replay)").arg(rec.idempotencyKey)));
        if (s.nextAttemptAt && (s.status == DeliveryStatus::Retrying || s.status == DeliveryStatus::Pending))
            notes.append(scheduleNote(s, schedules));
        if (rec.resolution) {
            const DeliveryResolution &r = *rec.resolution;
            const QString how
                = r.resolution == Resolution::NotNeeded ? tr("not needed") : tr("handled manually");
            QString line = tr("%1: resolved by %2 (%3) %4 as %5: %6")
                               .arg(s.destination, r.actor, r.role, TimeFormat::display(r.resolvedAt), how,
                                   r.reason.simplified());
            if (!r.ticket.isEmpty())
                line += tr(" (ticket %1)").arg(r.ticket);
            notes.append(line);
            item->setToolTip(DStatus, plainToolTip(line));
        }
    }
    for (int c = 0; c < DColumnCount; ++c)
        m_deliveries->resizeColumnToContents(c);
    if (m_deliveries->topLevelItemCount() > 0)
        m_deliveries->setCurrentItem(m_deliveries->topLevelItem(0));
    updateReplayDelivery();
    m_scheduleNote->setText(notes.join(u'\n'));
    m_scheduleNote->setVisible(!notes.isEmpty());
    if (d.deliveries.isEmpty())
        m_scheduleNote->setText(tr("No route matched this event, so it was not delivered anywhere."));
    m_scheduleNote->setVisible(!m_scheduleNote->text().isEmpty());
}

void EventDetailView::fillAttempts(const EventDetail &d)
{
    m_attempts->clear();
    m_excerpt->clear();
    for (const DeliveryRecord &rec : d.deliveries) {
        for (const AttemptRecord &a : rec.attempts) {
            auto *item = new QTreeWidgetItem(m_attempts);
            item->setText(ANumber, LocaleFormat::count(a.number));
            item->setText(ADestination, rec.summary.destination);
            item->setText(AStarted, TimeFormat::display(a.startedAt));
            item->setToolTip(AStarted,
                TimeFormat::tooltip(a.startedAt)
                    + (a.scheduledAt ? tr("\nscheduled for %1").arg(TimeFormat::display(*a.scheduledAt))
                                     : QString()));
            item->setText(ATrigger,
                a.trigger == AttemptTrigger::Replay && a.replayId ? tr("replay #%1").arg(*a.replayId)
                                                                  : a.trigger.name());
            item->setText(AHttp, a.statusCode ? QString::number(*a.statusCode) : QStringLiteral("—"));
            item->setText(ADuration, LocaleFormat::milliseconds(a.durationMs));
            StatusLook look = a.category == FailureCategory::None ? statusLook(DeliveryStatus::Succeeded)
                                                                  : statusLook(DeliveryStatus::Retrying);
            if (a.outcomeUnknown)
                look = downstreamLook(DownstreamState::OutcomeUnknown);
            look.label
                = categoryLabel(a.category) + (a.outcomeUnknown ? tr(" · outcome unknown") : QString());
            paintChip(item, ACategory, look);
            item->setText(AExplanation, a.explanation);
            item->setToolTip(AExplanation, plainToolTip(a.explanation));
            item->setData(ANumber, Qt::UserRole, a.responseExcerpt);
        }
    }
    for (int c = 0; c < AColumnCount - 1; ++c)
        m_attempts->resizeColumnToContents(c);
    if (m_attempts->topLevelItemCount() == 0)
        m_excerpt->setPlaceholderText(tr("No attempts yet."));
}

void EventDetailView::attemptChosen(QTreeWidgetItem *item)
{
    if (!item) {
        m_excerpt->clear();
        return;
    }
    const QString excerpt = item->data(ANumber, Qt::UserRole).toString();
    m_excerpt->setPlainText(excerpt.isEmpty() ? tr("(the destination sent no body)") : excerpt);
}

void EventDetailView::fillPayload(const EventDetail &d)
{
    // The shown copy: values the source redacts read "[redacted]" in the tree, the text and
    // what "Copy payload" copies; the bar says which paths.
    m_redaction->showRedaction(d);
    QString error;
    const bool json = m_json->setJson(d.body, &error);
    m_jsonTree->setVisible(json);
    if (json) {
        m_jsonTree->expandToDepth(0);
        m_jsonTree->resizeColumnToContents(JsonTreeModel::KeyColumn);
    }
    m_payloadNote->setText(json ? QString() : tr("The body is %1; shown as text only.").arg(error));
    m_payloadNote->setVisible(!json);
    // Bodies are shown as received; invalid UTF-8 is shown with replacement characters.
    m_raw->setPlainText(QString::fromUtf8(d.body));
}

void EventDetailView::fillHeaders(const EventDetail &d)
{
    const Headers headers = Headers::fromJson(d.headersJson);
    m_headers->setRowCount(int(headers.size()));
    int row = 0;
    for (const auto &[name, value] : headers.fields()) {
        m_headers->setItem(row, 0, new QTableWidgetItem(QString::fromLatin1(name)));
        m_headers->setItem(row, 1, new QTableWidgetItem(QString::fromUtf8(value)));
        ++row;
    }
    m_headers->resizeColumnToContents(0);
}

void EventDetailView::fillNotes(const EventDetail &d)
{
    QStringList lines;
    for (const NoteRecord &n : d.notes)
        lines.append(
            QStringLiteral("%1 — %2:\n%3\n").arg(TimeFormat::display(n.createdAt), n.author, n.body));
    m_notes->setPlainText(lines.isEmpty() ? tr("No notes yet.") : lines.join(u'\n'));
    m_audit->clear();
    for (const EventAuditEntry &a : d.audit) {
        auto *item = new QTreeWidgetItem(m_audit);
        item->setText(0, TimeFormat::display(a.at));
        item->setToolTip(0, TimeFormat::tooltip(a.at));
        item->setText(1, QStringLiteral("%1 (%2)").arg(a.actor, a.role));
        item->setText(2, a.action);
        item->setText(3, a.target);
        item->setText(4, a.reason);
        item->setToolTip(4, plainToolTip(a.details));
    }
    for (int c = 0; c < 4; ++c)
        m_audit->resizeColumnToContents(c);
}

bool EventDetailView::selectReplayAttempt(qint64 replayId)
{
    // fillAttempts() labels a replay's attempts "replay #<id>" in the trigger column.
    const QString label = tr("replay #%1").arg(replayId);
    QTreeWidgetItem *found = nullptr;
    for (int i = 0; i < m_attempts->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_attempts->topLevelItem(i);
        if (item->text(ATrigger) == label)
            found = item;
    }
    if (!found)
        return false;
    m_tabs->setCurrentIndex(m_tabs->indexOf(m_attempts->parentWidget()));
    m_attempts->setCurrentItem(found);
    m_attempts->scrollToItem(found);
    return true;
}

} // namespace redrive::ui
