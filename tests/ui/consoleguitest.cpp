// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consoleguitest.h"

#include "connection/connectiondialog.h"
#include "events/eventtablemodel.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

namespace redrive::test {

using namespace redrive::ui;

bool ConsoleGuiTest::setUpFixture()
{
    QString error;
    m_t = TestDatabase::create(Backend::Sqlite, &error);
    if (!m_t) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    m_writer = m_t->open(QStringLiteral("writer"));
    ConsoleFixture fx(*m_writer);
    m_s = fx.addScenario(kGuiBase);
    if (!fx.lastError().isEmpty())
        return false;
    setUpSettings();
    m_api.setToken("tok-123");
    return m_api.listen();
}

bool ConsoleGuiTest::setUpReceiver(const QByteArray &extraConfig)
{
    m_receiver = std::make_unique<RealReceiver>();
    m_receiver->useSqliteFile(m_t->url().sqlitePath);
    m_receiver->setDeliverySettings("enabled = false\n");
    m_receiver->setExtraConfig("[[destinations]]\nname = \"billing\"\nurl = \"http://127.0.0.1:9/billing\"\n"
                               "risk = \"high\"\nmax_attempts = 1\nallow_private = true\n"
                               // A breaker that never opens by itself here: tests open it in the database.
                               "circuit = { failures = 10000, within = \"1h\", probe_every = \"1h\" }\n\n"
        + extraConfig);
    QString error;
    if (!m_receiver->start(&error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return true;
}

void ConsoleGuiTest::setUpSettings()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings
        = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("redrive.ini")), QSettings::IniFormat);
}

namespace {

void setField(ConnectionDialog *dialog, const char *field, const QString &text)
{
    auto *edit = dialog->findChild<QLineEdit *>(QLatin1String(field));
    edit->clear();
    QTest::keyClicks(edit, text);
}

} // namespace

bool ConsoleGuiTest::connectWith(ConsoleController &console, const QString &name, const QString &sqlitePath,
    const QString &token, QString *problem, const QUrl &adminUrl)
{
    return connectSqlite(
        console, name, sqlitePath, (adminUrl.isEmpty() ? m_api.url() : adminUrl).toString(), token, problem);
}

bool ConsoleGuiTest::connectReadOnly(
    ConsoleController &console, const QString &name, const QString &sqlitePath, QString *problem)
{
    return connectSqlite(console, name, sqlitePath, QString(), QString(), problem);
}

bool ConsoleGuiTest::connectSqlite(ConsoleController &console, const QString &name, const QString &sqlitePath,
    const QString &adminUrl, const QString &token, QString *problem)
{
    console.showConnectionDialog();
    ConnectionDialog *dialog = console.connectionDialog();
    if (!dialog)
        return false;
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    setField(dialog, "nameEdit", name);
    setField(dialog, "environmentEdit", QStringLiteral("production"));
    setField(dialog, "sqlitePathEdit", sqlitePath);
    setField(dialog, "adminUrlEdit", adminUrl);
    setField(dialog, "tokenEdit", token);
    return pressConnect(console, dialog, problem);
}

bool ConsoleGuiTest::connectWithPostgres(ConsoleController &console, const QString &name,
    const QString &postgresUrl, const QString &token, const QUrl &adminUrl, QString *problem)
{
    console.showConnectionDialog();
    ConnectionDialog *dialog = console.connectionDialog();
    if (!dialog)
        return false;
    const QUrl pg(postgresUrl);
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    setField(dialog, "nameEdit", name);
    setField(dialog, "environmentEdit", QStringLiteral("production"));
    find<QComboBox>(dialog, "databaseKind")->setCurrentIndex(1);
    setField(dialog, "pgHostEdit", pg.host());
    find<QSpinBox>(dialog, "pgPortSpin")->setValue(pg.port());
    setField(dialog, "pgDatabaseEdit", pg.path().mid(1));
    setField(dialog, "pgUserEdit", pg.userName());
    setField(dialog, "pgPasswordEdit", pg.password());
    find<QComboBox>(dialog, "pgSslMode")->setCurrentText(QStringLiteral("disable"));
    setField(dialog, "adminUrlEdit", adminUrl.toString());
    setField(dialog, "tokenEdit", token);
    return pressConnect(console, dialog, problem);
}

bool ConsoleGuiTest::pressConnect(ConsoleController &console, ConnectionDialog *dialog, QString *problem)
{
    QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
    // The dialog deletes itself once connected: stop looking at its label when it is gone.
    bool gone = false;
    connect(dialog, &QObject::destroyed, this, [&gone] { gone = true; });
    QLabel *problemLabel = find<QLabel>(dialog, "problemLabel");
    QDeadlineTimer deadline(kGuiWait);
    while (!deadline.hasExpired() && !console.session() && !gone && problemLabel->isHidden())
        QTest::qWait(10);
    if (problem)
        *problem = !gone && problemLabel->isVisible() ? problemLabel->text() : QString();
    return console.session() != nullptr;
}

bool ConsoleGuiTest::signInTo(const QString &person, const QString &sqlitePath, const QString &token,
    const QUrl &adminUrl, const Clock &clock)
{
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, clock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window())) {
        qWarning("the console window for %s did not show", qPrintable(person));
        return false;
    }
    QString problem;
    const bool ok = connectWith(*m_console, person, sqlitePath, token, &problem, adminUrl);
    if (!ok)
        qWarning("%s could not connect: %s", qPrintable(person), qPrintable(problem));
    return ok;
}

QTableView *ConsoleGuiTest::table() const
{
    return m_console->window()->findChild<QTableView *>(QStringLiteral("eventsTable"));
}

void ConsoleGuiTest::search(const QString &text)
{
    auto *edit = find<QLineEdit>(m_console->window(), "searchEdit");
    edit->clear();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

bool ConsoleGuiTest::selectRow(int row)
{
    QTableView *t = table();
    const QModelIndex index = t->model()->index(row, EventTableModel::SourceColumn);
    t->scrollTo(index);
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualRect(index).center());
    return t->selectionModel()->currentIndex().row() == row;
}

} // namespace redrive::test
