// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "hangfixture.h"

#include "main/mainwindow.h"

#include <QAction>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTest>

namespace redrive::test {

using ui::ApiError;
using ui::ApiReply;
using ui::MainWindow;

std::optional<Answer> await(ApiReply *reply, int timeoutMs)
{
    std::optional<Answer> out;
    QElapsedTimer clock;
    clock.start();
    const QObject guard; // disconnects when this returns, answered or not
    QObject::connect(
        reply, &ApiReply::finished, &guard, [&out, &clock](const QJsonDocument &body, const ApiError &error) {
            out = Answer { body, error, clock.elapsed() };
        });
    if (!QTest::qWaitFor([&out] { return out.has_value(); }, timeoutMs))
        return std::nullopt;
    return out;
}

bool HangFixture::startHangingReceiver(QString *error)
{
    if (!m_cluster.start(error))
        return false;
    m_receiver.usePostgres(m_cluster.url());
    m_receiver.setAdminSettings("reply_timeout = \"" + QByteArray::number(kReplyTimeoutMs) + "ms\"\n");
    if (!m_receiver.start(error))
        return false;
    setUpSettings();
    return true;
}

void HangFixture::stopAll()
{
    thaw();
    m_console.reset();
    m_receiver.stop();
}

void HangFixture::thawAndReport()
{
    thaw(); // a failed check must not leave the server stopped for the next function
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool HangFixture::freeze()
{
    QString error;
    m_frozen = m_cluster.freeze(&error);
    if (!m_frozen)
        qWarning("%s", qPrintable(error));
    return m_frozen;
}

void HangFixture::thaw()
{
    if (!m_frozen)
        return;
    QString error;
    if (!m_cluster.thaw(&error))
        qWarning("%s", qPrintable(error));
    m_frozen = false;
}

bool HangFixture::openConsole(const QString &profile, const QString &person)
{
    m_console.reset();
    m_console = std::make_unique<ui::ConsoleController>(*m_settings, m_secrets, m_systemClock);
    MainWindow *w = m_console->window();
    w->show();
    if (!QTest::qWaitForWindowExposed(w)) {
        qWarning("the console window for %s did not show", qPrintable(person));
        return false;
    }
    QString problem;
    const bool ok = connectWithPostgres(
        *m_console, profile, m_cluster.url(), m_receiver.token(person), m_receiver.adminUrl(), &problem);
    if (!ok)
        qWarning("%s could not connect: %s", qPrintable(person), qPrintable(problem));
    return ok;
}

double HangFixture::finishedAdminRequests() const
{
    const auto metrics = adminGet(static_cast<quint16>(m_receiver.adminUrl().port()), "/metrics");
    return metrics && metrics->status == 200
        ? metricValue(metrics->body, "redrive_admin_request_duration_seconds_count")
        : -1;
}

void HangFixture::refreshByHand()
{
    for (QAction *a : m_console->window()->findChildren<QAction *>()) {
        if (a->text() == u"&Refresh")
            a->trigger();
    }
}

void HangFixture::verifyNoTokenShown(const QString &token)
{
    MainWindow *w = m_console->window();
    // The window's own widgets (not the connection dialog's token field, deleted once connected).
    QStringList texts { w->windowTitle(), w->statusBar()->currentMessage() };
    for (const QLabel *l : w->findChildren<QLabel *>()) {
        if (l->window() == w)
            texts << l->text() << l->toolTip();
    }
    for (const QLineEdit *e : w->findChildren<QLineEdit *>()) {
        if (e->window() == w)
            texts << e->text();
    }
    for (const QPlainTextEdit *e : w->findChildren<QPlainTextEdit *>()) {
        if (e->window() == w)
            texts << e->toPlainText();
    }
    QVERIFY(texts.size() > 10);
    QVERIFY(!token.isEmpty());
    for (const QString &t : std::as_const(texts))
        QVERIFY2(!t.contains(token), "a text on the window shows the API token");
}

} // namespace redrive::test
