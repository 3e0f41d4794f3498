// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "testdb.h"

#include "crypto/crypto.h"
#include "storage/schema.h"

#include <QCoreApplication>
#include <QFile>
#include <QMetaMethod>
#include <QTest>

#include <algorithm>

namespace redrive::test {

Backend backendFromEnvironment()
{
    return qEnvironmentVariable("REDRIVE_TEST_BACKEND") == u"postgres" ? Backend::Postgres : Backend::Sqlite;
}

QString backendName(Backend backend)
{
    return backend == Backend::Postgres ? QStringLiteral("postgres") : QStringLiteral("sqlite");
}

QString postgresServerUrl(QString *error)
{
    const QString file = qEnvironmentVariable("REDRIVE_TEST_PG_URL_FILE");
    if (file.isEmpty()) {
        *error = QStringLiteral(
            "REDRIVE_TEST_PG_URL_FILE is not set (run through ctest, which starts PostgreSQL)");
        return {};
    }
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: the pg_start fixture did not run or failed").arg(file);
        return {};
    }
    return QString::fromUtf8(f.readAll()).trimmed();
}

int runStorageTest(QObject &test, int argc, char **argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    const bool namesGiven
        = std::any_of(args.cbegin() + 1, args.cend(), [](const QString &a) { return !a.startsWith(u'-'); });
    if (!namesGiven) {
        const QString other = backendFromEnvironment() == Backend::Sqlite ? QStringLiteral("_postgresOnly")
                                                                          : QStringLiteral("_sqliteOnly");
        bool excluded = false;
        QStringList functions;
        const QMetaObject *meta = test.metaObject();
        static const QStringList fixtures = { QStringLiteral("initTestCase"),
            QStringLiteral("cleanupTestCase"), QStringLiteral("init"), QStringLiteral("cleanup") };
        for (int m = meta->methodOffset(); m < meta->methodCount(); ++m) {
            const QMetaMethod method = meta->method(m);
            if (method.methodType() != QMetaMethod::Slot || method.access() != QMetaMethod::Private
                || method.parameterCount() != 0)
                continue;
            const QString name = QString::fromLatin1(method.name());
            if (fixtures.contains(name) || name.endsWith(QLatin1String("_data")))
                continue;
            if (name.endsWith(other))
                excluded = true;
            else
                functions.append(name);
        }
        if (excluded)
            args.append(functions);
    }
    return QTest::qExec(&test, args);
}

std::unique_ptr<TestDatabase> TestDatabase::create(Backend backend, QString *error, bool migrated)
{
    std::unique_ptr<TestDatabase> t(new TestDatabase);
    t->m_backend = backend;
    if (!t->m_dir.isValid()) {
        *error = QStringLiteral("cannot create a temporary directory");
        return nullptr;
    }
    if (backend == Backend::Sqlite) {
        t->m_urlString = QStringLiteral("sqlite://") + t->m_dir.filePath(QStringLiteral("redrive.db"));
    } else {
        const QString server = postgresServerUrl(error);
        if (server.isEmpty())
            return nullptr;
        t->m_adminUrl = server;
        t->m_pgName = QStringLiteral("redrive_t_") + QString::fromLatin1(crypto::randomBytes(6).toHex());
        auto url = StorageUrl::parse(server);
        if (!succeeded(url, error))
            return nullptr;
        auto admin = takeValue(Db::open(*url, QStringLiteral("test-admin"), {}), error);
        if (!admin)
            return nullptr;
        if (!succeeded(admin->exec(QStringLiteral("CREATE DATABASE %1").arg(t->m_pgName)), error))
            return nullptr;
        QString s = server;
        s.replace(s.lastIndexOf(QLatin1String("/postgres")), 9, u'/' + t->m_pgName);
        t->m_urlString = s;
    }
    auto url = StorageUrl::parse(t->m_urlString);
    if (!succeeded(url, error))
        return nullptr;
    t->m_url = *url;
    if (migrated) {
        auto db = t->open(QStringLiteral("test-migrate"));
        if (!db)
            return nullptr;
        if (auto migratedDb = migrate(*db); !migratedDb) {
            *error = migratedDb.error();
            return nullptr;
        }
    }
    return t;
}

TestDatabase::~TestDatabase()
{
    if (m_backend == Backend::Postgres && !m_pgName.isEmpty()) {
        QString error;
        auto url = StorageUrl::parse(m_adminUrl);
        if (url) {
            if (auto admin = takeValue(Db::open(*url, QStringLiteral("test-admin"), {}), &error))
                static_cast<void>(
                    admin->exec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_pgName)));
        }
    }
}

std::unique_ptr<Db> TestDatabase::open(const QString &purpose, OpenMode mode) const
{
    QString error;
    OpenOptions options;
    options.mode = mode;
    auto db = takeValue(Db::open(m_url, purpose, options), &error);
    if (!db)
        qWarning("TestDatabase::open(%s): %s", qPrintable(purpose), qPrintable(error));
    return db;
}

} // namespace redrive::test
