// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "receiverhealthcontroller.h"

#include "common/localeformat.h"
#include "common/plaintooltip.h"
#include "common/timeformat.h"
#include "common/warningbanner.h"
#include "connection/session.h"
#include "util/clock.h"

#include <QLabel>

namespace redrive::ui {
namespace {

QString name(const ReceiverInstance &r)
{
    return QStringLiteral("%1:%2").arg(r.host).arg(r.pid);
}

QString age(qint64 nowMs, qint64 atMs)
{
    return nowMs > atMs ? ReceiverHealthController::tr("%1 ago").arg(LocaleFormat::duration(nowMs - atMs))
                        : ReceiverHealthController::tr("just now");
}

} // namespace

ReceiverHealthController::ReceiverHealthController(
    Session *session, WarningBanner *banner, QLabel *status, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_banner(banner)
    , m_status(status)
    , m_clock(clock)
{
    m_status->setText(tr("Receivers: checking…"));
}

ReceiverHealthController::~ReceiverHealthController()
{
    m_banner->showWarnings({});
    m_status->clear();
    m_status->setToolTip(QString());
}

QString ReceiverHealthController::durabilityText(const QString &stored)
{
    QString out = stored;
    if (out.startsWith(QLatin1String("sqlite ")))
        out.replace(0, 6, QStringLiteral("SQLite"));
    else if (out.startsWith(QLatin1String("postgresql ")))
        out.replace(0, 10, QStringLiteral("PostgreSQL"));
    return out.isEmpty() ? tr("unknown durability settings") : out;
}

QString ReceiverHealthController::outageText(const ReceiverInstance &r)
{
    if (!r.outageBeganAt)
        return {};
    const QString began = TimeFormat::display(*r.outageBeganAt);
    const QString refused = tr("%Ln request(s) refused", nullptr, int(r.outageRefused));
    if (!r.outageEndedAt)
        return tr("database unreachable since %1 (ongoing, %2 so far)").arg(began, refused);
    QString ended = TimeFormat::display(*r.outageEndedAt);
    // "2026-12-01 16:02:11": the end on the same day is shown by its time alone.
    const qsizetype dateLength = began.indexOf(u' ');
    if (dateLength > 0 && ended.left(dateLength + 1) == began.left(dateLength + 1))
        ended = ended.mid(dateLength + 1);
    return tr("database unreachable %1–%2 (%3, %4)")
        .arg(began, ended, LocaleFormat::duration(std::max<qint64>(0, *r.outageEndedAt - *r.outageBeganAt)),
            refused);
}

QStringList ReceiverHealthController::warningsFor(const ReceiverHealth &h)
{
    QStringList out;
    for (const ReceiverInstance &r : h.recentOutage)
        out.append(tr("Receiver %1: %2.").arg(name(r), outageText(r)));
    for (const ReceiverInstance &r : h.notDurable)
        out.append(tr("Receiver %1 runs %2: acknowledged events may be lost on power failure.")
                       .arg(name(r), durabilityText(r.durability)));
    if (!h.openCircuits.isEmpty())
        out.append(tr("Circuit open for %1: deliveries held while the receiver probes (Destinations page).",
            nullptr, int(h.openCircuits.size()))
                       .arg(h.openCircuits.join(QStringLiteral(", "))));
    if (h.neverSeen) {
        out.append(tr("No receiver has recorded a heartbeat in this database: check that the profile points "
                      "at the receiver's database."));
    } else if (h.silentForMs) {
        const QString last = h.silent.isEmpty() ? QString() : tr(" (last: %1)").arg(name(h.silent.first()));
        out.append(tr("No receiver heartbeat for %1%2: webhooks may not be recorded or delivered.")
                       .arg(LocaleFormat::duration(*h.silentForMs), last));
    }
    return out;
}

QString ReceiverHealthController::statusFor(const ReceiverHealth &h, qint64 nowMs)
{
    if (h.live.isEmpty()) {
        if (h.neverSeen)
            return tr("⚠ No receiver recorded");
        return tr("⚠ No receiver heartbeat for %1").arg(LocaleFormat::duration(h.silentForMs.value_or(0)));
    }
    const QString warn
        = h.notDurable.isEmpty() && h.recentOutage.isEmpty() ? QString() : QStringLiteral("⚠ ");
    if (h.live.size() == 1)
        return tr("%1Receiver %2 · heartbeat %3")
            .arg(warn, name(h.live.first()), age(nowMs, h.live.first().heartbeatAt));
    return tr("%1%Ln receiver(s) · newest heartbeat %2", nullptr, int(h.live.size()))
        .arg(warn, age(nowMs, h.live.first().heartbeatAt));
}

QString ReceiverHealthController::tooltipFor(const ReceiverHealth &h, qint64 nowMs)
{
    QStringList lines;
    auto describe = [&](const ReceiverInstance &r, const QString &state) {
        const QString outage = outageText(r);
        lines.append(tr("%1 (redrived %2, %3): started %4, last heartbeat %5; %6 — %7%8")
                         .arg(name(r), r.version, state, TimeFormat::display(r.startedAt),
                             age(nowMs, r.heartbeatAt), durabilityText(r.durability),
                             r.powerLossDurable ? tr("survives power loss") : tr("NOT power-loss durable"),
                             outage.isEmpty() ? QString() : tr("; last ") + outage));
    };
    for (const ReceiverInstance &r : h.live)
        describe(r, tr("running"));
    for (const ReceiverInstance &r : h.silent)
        describe(r, tr("silent"));
    if (lines.isEmpty())
        lines.append(tr("No receiver has recorded a heartbeat in the last 24 hours."));
    return lines.join(u'\n');
}

void ReceiverHealthController::refresh()
{
    if (!m_gate.enter())
        return;
    const qint64 since = m_clock.nowMs() - kReceiverRecentMs;
    m_session->stats()->submit(
        this, &m_generation, [since](Db &db) { return fetchReceiverInstances(db, since); },
        [this](const Result<ReceiverInstances> &instances) {
            if (m_gate.leave()) {
                refresh(); // asked again while reading: this answer may already be stale
                return;
            }
            if (!instances) {
                m_status->setText(tr("Receivers: unknown"));
                m_status->setToolTip(
                    plainToolTip(tr("receiver_instances could not be read: ") + instances.error()));
                return;
            }
            const qint64 now = m_clock.nowMs();
            const ReceiverHealth health = assessReceivers(*instances, now);
            m_banner->showWarnings(warningsFor(health));
            m_status->setText(statusFor(health, now));
            m_status->setToolTip(plainToolTip(tooltipFor(health, now)));
            Q_EMIT refreshed();
        });
}

} // namespace redrive::ui
