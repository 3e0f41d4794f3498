// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QTemporaryDir>

#include <memory>

namespace redrive::test {

// Which engine a storage test runs against. CTest registers every storage suite twice, with
// REDRIVE_TEST_BACKEND=sqlite and =postgres; the PostgreSQL server is the real one the
// `pg_start` fixture started (its url is in the file named by REDRIVE_TEST_PG_URL_FILE).
enum class Backend { Sqlite, Postgres };
Backend backendFromEnvironment();
QString backendName(Backend backend);

// A fresh, migrated database for one test: a SQLite file in a temporary directory, or a new
// PostgreSQL database created on the shared test server and dropped again afterwards.
class TestDatabase final {
public:
    static std::unique_ptr<TestDatabase> create(Backend backend, QString *error, bool migrated = true);
    static std::unique_ptr<TestDatabase> create(QString *error, bool migrated = true)
    {
        return create(backendFromEnvironment(), error, migrated);
    }
    ~TestDatabase();

    [[nodiscard]] Backend backend() const { return m_backend; }
    [[nodiscard]] const StorageUrl &url() const { return m_url; }
    // The url as a config string ("sqlite:///tmp/x/redrive.db" or "postgresql://...").
    [[nodiscard]] QString urlString() const { return m_urlString; }
    // A new connection for the calling thread.
    std::unique_ptr<Db> open(
        const QString &purpose = QStringLiteral("test"), OpenMode mode = OpenMode::ReadWrite) const;
    // A directory that lives as long as the database (config files, keys, logs).
    [[nodiscard]] QString scratchDir() const { return m_dir.path(); }

private:
    TestDatabase() = default;
    Backend m_backend = Backend::Sqlite;
    StorageUrl m_url;
    QString m_urlString;
    QString m_adminUrl; // PostgreSQL: the server's maintenance database, to drop ours
    QString m_pgName;
    QTemporaryDir m_dir;
};

// The PostgreSQL url of the shared test server, or empty with a reason.
QString postgresServerUrl(QString *error);

// Runs a QtTest object on the backend chosen by the environment. Test functions whose name ends
// in "_sqliteOnly" or "_postgresOnly" exist for one engine only: on the other they are not run
// at all (rather than run and skipped, which CTest would count as a pass). Explicit function
// names on the command line are honoured as given.
int runStorageTest(QObject &test, int argc, char **argv);

} // namespace redrive::test

#define REDRIVE_STORAGE_TEST_MAIN(TestClass)                                                                 \
    int main(int argc, char **argv)                                                                          \
    {                                                                                                        \
        QCoreApplication app(argc, argv);                                                                    \
        TestClass test;                                                                                      \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return redrive::test::runStorageTest(test, argc, argv);                                              \
    }

namespace redrive::test { } // namespace redrive::test
