// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/retryschedules.h"
#include "query/eventdetail.h"

#include <QWidget>

class QAction;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTreeView;
class QTreeWidget;
class QTreeWidgetItem;

namespace redrive::ui {

class JsonTreeModel;
class KeyLinks;
class RedactionBar;
class ValidationPanel;

// The side panel for one event: envelope, deliveries with the downstream indicator, the
// attempt timeline, payload (tree and raw), redacted headers, notes and audit entries.
// Passive: the DetailController feeds it and handles `noteSubmitted`. Webhook-supplied text is
// only ever shown as plain text.
class EventDetailView final : public QWidget {
    Q_OBJECT
public:
    explicit EventDetailView(QWidget *parent = nullptr);
    ~EventDetailView() override;

    void showLoading(qint64 eventId);
    void showEmpty();
    void showError(const QString &text);
    // `schedules` (when known) lets the panel project the remaining attempts of a delivery.
    void showDetail(const EventDetail &detail, qint64 nowMs,
        const std::optional<RetrySchedules> &schedules = std::nullopt);
    void setCanAddNotes(bool can);
    void setNoteBusy(bool busy, const QString &message = {});
    void setCanExportEvidence(bool can);
    // Offers "Replay this delivery…" on the deliveries list (button, context menu, Ctrl+R).
    void setCanReplay(bool can);
    // Offers "Mark resolved…" for the selected delivery while it is a dead letter.
    void setCanResolve(bool can);
    void setEvidenceStatus(bool busy, const QString &message);

    [[nodiscard]] qint64 eventId() const { return m_eventId; }
    // Shows the Attempts tab with the (latest) attempt of replay `replayId` current; false when
    // no attempt of this event came from that replay yet.
    bool selectReplayAttempt(qint64 replayId);
    // The event's business keys, each a search (`searchRequested`).
    [[nodiscard]] KeyLinks *keyLinks() const { return m_keys; }
    // A quarantined event's schema errors and its "Revalidate" action.
    [[nodiscard]] ValidationPanel *validationPanel() const { return m_validation; }
    // Which payload values are redacted, and "Reveal original…" for the roles that may.
    [[nodiscard]] RedactionBar *redactionBar() const { return m_redaction; }

Q_SIGNALS:
    void noteSubmitted(qint64 eventId, const QString &text);
    void exportEvidenceRequested(qint64 eventId);
    void replayDeliveryRequested(qint64 deliveryId);
    void resolveDeliveryRequested(qint64 deliveryId);

private:
    void addField(
        const QString &label, const QString &value, const QString &objectName, const QString &tooltip = {});
    void fillDeliveries(
        const EventDetail &detail, qint64 nowMs, const std::optional<RetrySchedules> &schedules);
    void fillAttempts(const EventDetail &detail);
    void fillPayload(const EventDetail &detail);
    void fillHeaders(const EventDetail &detail);
    void fillNotes(const EventDetail &detail);
    void attemptChosen(QTreeWidgetItem *item);
    void updateReplayDelivery();

    qint64 m_eventId = 0;
    QLabel *m_title;
    QLabel *m_message;
    QTabWidget *m_tabs;
    QWidget *m_summary;
    QFormLayout *m_form;
    KeyLinks *m_keys;
    ValidationPanel *m_validation;
    QTreeWidget *m_deliveries;
    QPushButton *m_replayDelivery;
    QAction *m_replayAction;
    bool m_canReplay = false;
    QPushButton *m_resolveDelivery;
    QAction *m_resolveAction;
    bool m_canResolve = false;
    QLabel *m_scheduleNote;
    QTreeWidget *m_attempts;
    QPlainTextEdit *m_excerpt;
    JsonTreeModel *m_json;
    QTreeView *m_jsonTree;
    QPlainTextEdit *m_raw;
    QLabel *m_payloadNote;
    RedactionBar *m_redaction;
    QTableWidget *m_headers;
    QPlainTextEdit *m_notes;
    QLineEdit *m_noteEdit;
    QPushButton *m_addNote;
    QLabel *m_noteStatus;
    QTreeWidget *m_audit;
    QPushButton *m_exportEvidence;
    QLabel *m_evidenceStatus;
};

} // namespace redrive::ui
