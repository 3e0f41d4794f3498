// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The WAL flusher behind SQLite's group commit: a completion runs only after an fdatasync that
// began after it was queued, commits queued during a flush share the next one, the writer is
// held back while a committed batch waits, a replaced or vanished WAL file is still flushed, and
// a failed flush fails everything after it.

#include "walflusher.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

using redrive::ingest::WalFlusher;

namespace {

// One gate the flusher thread waits on inside a flush, and a signal that it got there.
struct HeldFlush {
    std::promise<void> entered;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<int> calls { 0 };
    // Holds only the first flush open; later ones pass.
    std::function<void()> hook()
    {
        return [this] {
            if (calls.fetch_add(1) == 0) {
                entered.set_value();
                released.wait();
            }
        };
    }
};

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

} // namespace

class TstWalFlusher final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_db;
    QString m_wal;

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_db = m_dir->filePath(QStringLiteral("redrive.db"));
        m_wal = m_db + QStringLiteral("-wal");
        QVERIFY(writeFile(m_db, "database"));
        QVERIFY(writeFile(m_wal, "wal"));
    }

    void startRefusesAMissingWal()
    {
        QVERIFY(QFile::remove(m_wal));
        WalFlusher flusher(m_db, m_wal);
        QString error;
        QVERIFY(!flusher.start(&error));
        QVERIFY2(error.contains(m_wal), qPrintable(error));
    }

    void completionRunsAfterAFlush()
    {
        WalFlusher flusher(m_db, m_wal);
        QString error;
        QVERIFY2(flusher.start(&error), qPrintable(error));
        std::promise<std::pair<bool, quint64>> seen;
        flusher.enqueue([&](bool flushed) { seen.set_value({ flushed, flusher.flushes() }); });
        const auto [flushed, flushesThen] = seen.get_future().get();
        QVERIFY(flushed);
        QCOMPARE(flushesThen, quint64(1));
        QVERIFY(!flusher.failed());
    }

    // The property the acknowledgement rests on: work committed while a flush is already running
    // may not be on disk yet, so it must wait for the next flush, not ride on the current one.
    void commitDuringAFlushWaitsForTheNextOne()
    {
        HeldFlush held;
        WalFlusher flusher(m_db, m_wal);
        flusher.setBeforeFlush(held.hook());
        QString error;
        QVERIFY2(flusher.start(&error), qPrintable(error));
        std::mutex mutex;
        std::vector<std::pair<char, quint64>> order; // (which, flushes completed when it ran)
        std::promise<void> bothDone;
        std::atomic<bool> allFlushed { true };
        auto record = [&](char which) {
            return [&, which](bool flushed) {
                allFlushed = allFlushed && flushed;
                std::lock_guard lock(mutex);
                order.emplace_back(which, flusher.flushes());
                if (order.size() == 2)
                    bothDone.set_value();
            };
        };
        flusher.enqueue(record('A'));
        held.entered.get_future().wait(); // the flush for A is in progress
        flusher.enqueue(record('B')); // committed "during" it
        held.release.set_value();
        bothDone.get_future().wait();
        QVERIFY(allFlushed.load());
        QCOMPARE(order.size(), std::size_t(2));
        QCOMPARE(order[0].first, 'A');
        QCOMPARE(order[0].second, quint64(1));
        QCOMPARE(order[1].first, 'B');
        QCOMPARE(order[1].second, quint64(2));
        QCOMPARE(held.calls.load(), 2);
    }

    void commitsQueuedTogetherShareOneFlush()
    {
        HeldFlush held;
        WalFlusher flusher(m_db, m_wal);
        flusher.setBeforeFlush(held.hook());
        QString error;
        QVERIFY2(flusher.start(&error), qPrintable(error));
        std::atomic<int> done { 0 };
        std::atomic<int> flushedCount { 0 };
        std::promise<void> all;
        flusher.enqueue([](bool) {}); // holds the first flush open
        held.entered.get_future().wait();
        constexpr int kCommits = 20;
        for (int i = 0; i < kCommits; ++i) {
            flusher.enqueue([&](bool flushed) {
                flushedCount += flushed ? 1 : 0;
                if (done.fetch_add(1) + 1 == kCommits)
                    all.set_value();
            });
        }
        held.release.set_value();
        all.get_future().wait();
        QCOMPARE(flushedCount.load(), kCommits);
        QCOMPARE(flusher.flushes(), quint64(2)); // one for the first, one for the twenty
    }

    void writerWaitsWhileTooManyCommitsAreUnflushed()
    {
        HeldFlush held;
        WalFlusher flusher(m_db, m_wal);
        flusher.setBeforeFlush(held.hook());
        QString error;
        QVERIFY2(flusher.start(&error), qPrintable(error));
        flusher.enqueue([](bool) {});
        held.entered.get_future().wait();
        flusher.enqueue([](bool) {}); // two unflushed now
        std::atomic<bool> returned { false };
        std::thread writer([&] {
            flusher.waitUntilAtMost(1);
            returned = true;
        });
        // Negative check, bounded: the writer is still held while the flush is open.
        QTest::qWait(100);
        QVERIFY(!returned.load());
        held.release.set_value();
        writer.join();
        QVERIFY(returned.load());
        flusher.waitUntilAtMost(0);
        QCOMPARE(flusher.flushes(), quint64(2));
    }

    void stopCompletesEverythingQueued()
    {
        std::atomic<int> flushedCount { 0 };
        {
            WalFlusher flusher(m_db, m_wal);
            QString error;
            QVERIFY2(flusher.start(&error), qPrintable(error));
            for (int i = 0; i < 50; ++i)
                flusher.enqueue([&](bool flushed) { flushedCount += flushed ? 1 : 0; });
            flusher.stop();
        }
        QCOMPARE(flushedCount.load(), 50);
    }

    void replacedWalIsReopened()
    {
        WalFlusher flusher(m_db, m_wal);
        QString error;
        QVERIFY2(flusher.start(&error), qPrintable(error));
        // A new file under the same name (a new inode): flushing the old descriptor would flush
        // nothing that matters.
        QVERIFY(QFile::remove(m_wal));
        QVERIFY(writeFile(m_wal, "new wal"));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("WAL file .* was replaced")));
        std::promise<bool> seen;
        flusher.enqueue([&](bool flushed) { seen.set_value(flushed); });
        QVERIFY(seen.get_future().get());
        QVERIFY(!flusher.failed());
    }

    void vanishedWalFlushesTheDatabase()
    {
        WalFlusher flusher(m_db, m_wal);
        QString error;
        QVERIFY2(flusher.start(&error), qPrintable(error));
        QVERIFY(QFile::remove(m_wal));
        std::promise<bool> seen;
        flusher.enqueue([&](bool flushed) { seen.set_value(flushed); });
        QVERIFY(seen.get_future().get());
        QCOMPARE(flusher.flushes(), quint64(1));
    }

    void failedFlushFailsEverythingAfterIt()
    {
        WalFlusher flusher(m_db, m_wal);
        QString error;
        QVERIFY2(flusher.start(&error), qPrintable(error));
        // Neither the WAL nor the database can be flushed any more.
        QVERIFY(QFile::remove(m_wal));
        QVERIFY(QFile::remove(m_db));
        QTest::ignoreMessage(
            QtCriticalMsg, QRegularExpression(QStringLiteral("flushing the WAL failed .*redrive\\.db")));
        std::promise<bool> first;
        flusher.enqueue([&](bool flushed) { first.set_value(flushed); });
        QVERIFY(!first.get_future().get());
        QVERIFY(flusher.failed());
        // The file is back, but nothing written before it can be vouched for: still refused,
        // without another attempt.
        QVERIFY(writeFile(m_wal, "wal"));
        std::promise<bool> second;
        flusher.enqueue([&](bool flushed) { second.set_value(flushed); });
        QVERIFY(!second.get_future().get());
        QCOMPARE(flusher.flushes(), quint64(0));
    }
};

QTEST_GUILESS_MAIN(TstWalFlusher)
#include "tst_walflusher.moc"
