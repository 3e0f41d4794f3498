// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcileview.h"

#include "common/statuspalette.h"

#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

ReconcileView::ReconcileView(QWidget *parent)
    : TablePage(QStringLiteral("reconcileSourceTable"), tr("Reconciliation by source"), parent)
    , m_runTable(new QTableView)
    , m_runsHeading(new QLabel)
    , m_result(new QLabel)
    , m_runNow(new QPushButton(tr("Run &now"), this))
{
    setObjectName(QStringLiteral("reconciliationPage"));
    status()->setObjectName(QStringLiteral("reconcileSummary"));

    m_runsHeading->setObjectName(QStringLiteral("reconcileRunsHeading"));
    m_runsHeading->setTextFormat(Qt::PlainText);
    m_runsHeading->setStyleSheet(headingStyle());
    setupTableView(m_runTable, QStringLiteral("reconcileRunTable"), tr("Recent reconciliation runs"));
    m_result->setObjectName(QStringLiteral("reconcileResult"));
    m_result->setAccessibleName(tr("Run now result"));
    m_result->setTextFormat(Qt::PlainText); // the receiver's words, never markup
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_result->hide();
    QVBoxLayout *detail = addDetailPane();
    detail->addWidget(m_runsHeading);
    detail->addWidget(m_runTable, 1);
    detail->addWidget(m_result);

    m_runNow->setObjectName(QStringLiteral("runNowButton"));
    addButton(m_runNow);
    connect(m_runNow, &QPushButton::clicked, this, &ReconcileView::runNowRequested);
}

void ReconcileView::setSummary(const QString &text, bool bad)
{
    TablePage::setSummary(text);
    status()->setStyleSheet(bad ? toneTextStyle(Tone::Bad) : QString());
}

void ReconcileView::setRunsHeading(const QString &text)
{
    m_runsHeading->setText(text);
}

void ReconcileView::setResult(const QString &text, bool bad)
{
    m_result->setText(text);
    m_result->setStyleSheet(noticeStyle(bad ? Tone::Bad : Tone::Good));
    m_result->setVisible(!text.isEmpty());
}

void ReconcileView::setRunNow(const QString &source, const QString &provider, const QString &whyNot)
{
    // The button names the source it runs.
    // A '&' in a source name is shown, not taken for a second mnemonic.
    m_runNow->setText(source.isEmpty()
            ? tr("Run &now")
            : tr("Run %1 &now").arg(QString(source).replace(u'&', QStringLiteral("&&"))));
    m_runNow->setAccessibleName(
        source.isEmpty() ? tr("Run reconciliation now") : tr("Run reconciliation of %1 now").arg(source));
    m_runNow->setEnabled(whyNot.isEmpty());
    m_runNow->setToolTip(
        whyNot.isEmpty() ? tr("Ask the receiver to reconcile %1 with %2 now").arg(source, provider) : whyNot);
    m_runNow->setAccessibleDescription(whyNot);
}

void ReconcileView::fitColumns()
{
    table()->resizeColumnsToContents();
    m_runTable->resizeColumnsToContents();
}

} // namespace redrive::ui
