// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "mainwindow.h"

#include "approvals/approvalsview.h"
#include "auditor/auditview.h"
#include "common/accessibleparts.h"
#include "common/environmentbanner.h"
#include "common/warningbanner.h"
#include "deadletters/deadlettersview.h"
#include "destinations/destinationsview.h"
#include "detail/eventdetailview.h"
#include "events/eventsview.h"
#include "links/linkbanner.h"
#include "overview/overviewview.h"
#include "reconcile/reconcileview.h"
#include "rejections/rejectionsview.h"
#include "replays/replaysview.h"
#include "shortcutsdialog.h"
#include "windowfit.h"

#include <QAbstractItemView>
#include <QDataStream>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QResizeEvent>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <array>

namespace redrive::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_banner(new EnvironmentBanner)
    , m_receiverWarning(new WarningBanner)
    , m_pages(new QTabWidget)
    , m_overview(new OverviewView)
    , m_events(new EventsView)
    , m_detail(new EventDetailView)
    , m_eventsSplit(new QSplitter(Qt::Horizontal))
    , m_deadLetters(new DeadLettersView)
    , m_rejections(new RejectionsView)
    , m_replays(new ReplaysView)
    , m_approvals(new ApprovalsView)
    , m_audit(new AuditView)
    , m_destinations(new DestinationsView)
    , m_reconciliation(new ReconcileView)
    , m_receiverStatus(new QLabel)
    , m_identity(new QLabel)
    , m_connection(new QLabel)
    , m_replicaWarning(new WarningBanner)
    , m_replicaStatus(new QLabel)
    , m_databaseWarning(new WarningBanner)
    , m_linkBanner(new LinkBanner)
    , m_approvalsNote(new QLabel)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Redrive")); // the product's name, in every language
    setWindowIcon(QIcon(QStringLiteral(":/icons/io.redrive.Console.svg")));
    m_pages->setObjectName(QStringLiteral("pages"));
    m_pages->setDocumentMode(true);
    m_receiverWarning->setObjectName(QStringLiteral("receiverWarning"));
    speakAsStatus(m_receiverWarning, tr("Receiver warning"));
    m_replicaWarning->setObjectName(QStringLiteral("replicaWarning"));
    speakAsStatus(m_replicaWarning, tr("Replica warning"));
    m_databaseWarning->setObjectName(QStringLiteral("databaseWarning"));
    speakAsStatus(m_databaseWarning, tr("Database warning"));
    m_eventsSplit->setObjectName(QStringLiteral("eventsSplit"));
    m_eventsSplit->addWidget(m_events);
    m_eventsSplit->addWidget(m_detail);
    m_eventsSplit->setStretchFactor(0, 3);
    m_eventsSplit->setStretchFactor(1, 2);
    m_eventsSplit->setSizes({ 860, 540 });
    m_eventsSplit->setChildrenCollapsible(false);
    const std::array<QWidget *, PageCount> pages { m_overview, m_eventsSplit, m_deadLetters, m_rejections,
        m_replays, m_approvals, m_audit, m_destinations, m_reconciliation };
    for (int i = 0; i < PageCount; ++i)
        m_pages->insertTab(i, pages[i], pageTitle(Page(i)));
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int i) {
        // The keyboard starts in the page's list, where its work is.
        if (QWidget *page = m_pages->widget(i))
            if (auto *list = page->findChild<QAbstractItemView *>(); list && list->isEnabled())
                list->setFocus(Qt::OtherFocusReason);
        Q_EMIT pageChanged(Page(i));
    });

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_receiverWarning);
    layout->addWidget(m_replicaWarning);
    layout->addWidget(m_databaseWarning);
    layout->addWidget(m_linkBanner);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    QMenu *connection = menuBar()->addMenu(tr("&Connection"));
    QAction *connectAction = connection->addAction(tr("&Connect…"), this, &MainWindow::connectRequested);
    connectAction->setObjectName(QStringLiteral("connectAction"));
    connectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_disconnect = connection->addAction(tr("&Disconnect"), this, &MainWindow::disconnectRequested);
    m_disconnect->setObjectName(QStringLiteral("disconnectAction"));
    connection->addSeparator();
    QAction *quit = connection->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QString names[PageCount]
        = { tr("Overview"), tr("Events"), tr("Dead letters"), tr("Rejected requests"), tr("Replays"),
              tr("Approvals"), tr("Audit log"), tr("Destinations"), tr("Reconciliation") };
    for (int i = 0; i < PageCount; ++i) {
        QAction *a = view->addAction(names[i], this, [this, i] {
            if (isPageAvailable(Page(i)))
                showPage(Page(i));
        });
        a->setObjectName(QStringLiteral("pageAction%1").arg(i + 1));
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    view->addSeparator();
    QAction *find = view->addAction(tr("&Find event…"), this, &MainWindow::findRequested);
    find->setObjectName(QStringLiteral("findAction"));
    find->setShortcut(QKeySequence::Find);
    QAction *refresh = view->addAction(tr("&Refresh"), this, &MainWindow::refreshRequested);
    refresh->setShortcut(QKeySequence::Refresh);
    QAction *utc = view->addAction(tr("Show times in &UTC"));
    utc->setObjectName(QStringLiteral("utcAction"));
    utc->setCheckable(true);
    connect(utc, &QAction::toggled, this, &MainWindow::utcTimesToggled);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard shortcuts…"), this, [this] {
        auto *dialog = new ShortcutsDialog(this, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    keys->setShortcut(QKeySequence::HelpContents);

    m_identity->setObjectName(QStringLiteral("identityLabel"));
    m_identity->setTextFormat(Qt::PlainText);
    m_connection->setObjectName(QStringLiteral("connectionLabel"));
    m_connection->setTextFormat(Qt::PlainText);
    m_receiverStatus->setObjectName(QStringLiteral("receiverStatus"));
    speakAsStatus(m_receiverStatus); // "Receiver … · heartbeat …"; details in the tooltip
    m_receiverStatus->setTextFormat(Qt::PlainText);
    m_receiverStatus->setContentsMargins(0, 0, 16, 0); // apart from the identity that follows
    statusBar()->addWidget(m_connection, 1);
    statusBar()->addPermanentWidget(m_receiverStatus);
    m_replicaStatus->setObjectName(QStringLiteral("replicaStatus"));
    speakAsStatus(m_replicaStatus);
    m_replicaStatus->setTextFormat(Qt::PlainText);
    m_replicaStatus->setContentsMargins(0, 0, 16, 0);
    m_replicaStatus->hide(); // shown only on a hot standby
    statusBar()->addPermanentWidget(m_replicaStatus);
    statusBar()->addPermanentWidget(m_identity);
    m_approvalsNote->setObjectName(QStringLiteral("approvalsStatusNote"));
    m_approvalsNote->setTextFormat(Qt::PlainText);
    m_approvalsNote->hide(); // shown while requests wait for the user's approval
    statusBar()->addPermanentWidget(m_approvalsNote);
    setConnected(false);
    setGeometry(firstWindowGeometry(QSize(1400, 860), screen()->availableGeometry()));
}

namespace {
constexpr quint32 kLayoutMagic = 0x52444c31; // "RDL1"
} // namespace

QByteArray MainWindow::layoutState() const
{
    QByteArray out;
    QDataStream stream(&out, QIODevice::WriteOnly);
    stream.setVersion(QDataStream::Qt_6_4);
    stream << kLayoutMagic << saveGeometry() << int(m_eventsSplit->orientation())
           << m_eventsSplit->saveState();
    return out;
}

bool MainWindow::restoreLayoutState(const QByteArray &state)
{
    QDataStream stream(state);
    stream.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0;
    QByteArray geometry;
    int orientation = 0;
    QByteArray split;
    stream >> magic >> geometry >> orientation >> split;
    if (stream.status() != QDataStream::Ok || magic != kLayoutMagic)
        return false;
    // restoreGeometry() moves a window saved on a larger or absent screen back onto this one.
    if (!restoreGeometry(geometry))
        return false;
    // The orientation follows the restored width (resizeEvent); the sizes apply to it if it is
    // the one they were saved in.
    if (Qt::Orientation(orientation) == m_eventsSplit->orientation())
        m_eventsSplit->restoreState(split);
    return true;
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // Beside the list while there is room for both; under it on a laptop screen.
    const Qt::Orientation wanted = width() >= kSideBySideMinWidth ? Qt::Horizontal : Qt::Vertical;
    if (m_eventsSplit->orientation() == wanted)
        return;
    m_eventsSplit->setOrientation(wanted);
    const int length = wanted == Qt::Horizontal ? m_eventsSplit->width() : m_eventsSplit->height();
    m_eventsSplit->setSizes({ length * 3 / 5, length * 2 / 5 });
}

QStringList MainWindow::pageNames()
{
    static const QStringList names { QStringLiteral("overview"), QStringLiteral("events"),
        QStringLiteral("dead-letters"), QStringLiteral("rejections"), QStringLiteral("replays"),
        QStringLiteral("approvals"), QStringLiteral("audit"), QStringLiteral("destinations"),
        QStringLiteral("reconciliation") };
    static_assert(PageCount == 9, "name every page");
    return names;
}

std::optional<MainWindow::Page> MainWindow::pageFromName(const QString &name)
{
    const qsizetype i = pageNames().indexOf(name.trimmed().toLower());
    return i < 0 ? std::nullopt : std::optional<Page>(Page(i));
}

MainWindow::Page MainWindow::currentPage() const
{
    return Page(m_pages->currentIndex());
}

void MainWindow::showPage(Page page)
{
    m_pages->setCurrentIndex(page);
}

QString MainWindow::pageTitle(Page page)
{
    switch (page) {
    case OverviewPage:
        return tr("&Overview");
    case EventsPage:
        return tr("&Events");
    case DeadLettersPage:
        return tr("&Dead letters");
    case RejectionsPage:
        return tr("&Rejected requests");
    case ReplaysPage:
        return tr("Re&plays");
    case ApprovalsPage:
        return tr("&Approvals");
    case AuditPage:
        return tr("A&udit log");
    case DestinationsPage:
        return tr("Des&tinations");
    case ReconciliationPage:
        return tr("Reconc&iliation");
    case PageCount:
        break;
    }
    return {};
}

void MainWindow::setPageCount(Page page, int count)
{
    m_pages->setTabText(page, count > 0 ? tr("%1 (%2)").arg(pageTitle(page)).arg(count) : pageTitle(page));
}

void MainWindow::setPageAvailable(Page page, bool available)
{
    m_pages->setTabVisible(page, available);
    m_pages->setTabEnabled(page, available);
}

bool MainWindow::isPageAvailable(Page page) const
{
    return m_pages->isTabVisible(page);
}

void MainWindow::setIdentity(const QString &text)
{
    m_identity->setText(text);
}

void MainWindow::setConnectionText(const QString &text)
{
    m_connection->setText(text);
}

void MainWindow::setConnected(bool connected)
{
    m_pages->setEnabled(connected);
    m_disconnect->setEnabled(connected);
    if (!connected) {
        m_banner->clearEnvironment();
        m_receiverWarning->showWarnings({});
        m_receiverStatus->clear();
        m_replicaWarning->showWarnings({});
        m_replicaStatus->clear();
        m_replicaStatus->hide();
        m_databaseWarning->showWarnings({});
        m_approvalsNote->clear();
        m_approvalsNote->hide();
        setIdentity(QString());
        setConnectionText(tr("Not connected — Connection › Connect… (Ctrl+Shift+O)"));
    }
}

} // namespace redrive::ui
