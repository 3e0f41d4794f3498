// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "admincli.h"

#include "access/apitokens.h"
#include "audit/auditlog.h"
#include "audit/auditverifier.h"
#include "audit/checkpoint.h"
#include "audit/signedhead.h"
#include "audit/signingkey.h"
#include "storage/database.h"
#include "storage/schema.h"

#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>

#include <functional>
#include <pwd.h>
#include <unistd.h>
#include <vector>

namespace redrive::admin {
namespace {
constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kUsage = 2;

const char kTokenUsage[]
    = "usage: redrived token create --name NAME --owner PERSON --role support|operator|auditor|admin "
      "[--expires 90d]\n"
      "       redrived token revoke --name NAME\n"
      "       redrived token list\n";
const char kAuditUsage[] = "usage: redrived audit verify [--checkpoint FILE]\n"
                           "       redrived audit checkpoint [--out FILE]\n";

// Commits a token change together with its audit entry (`appended`); says why on `err`, after
// `what`, when either failed.
template<class T>
bool committed(const Result<T> &appended, Transaction &tx, QTextStream &err, const char *what)
{
    if (!appended) {
        err << what << appended.error() << '\n';
        return false;
    }
    if (auto done = tx.commit(); !done) {
        err << what << done.error() << '\n';
        return false;
    }
    return true;
}

// "--key value" and "--key=value" options after the subcommand; flags without values are errors.
bool parseOptions(
    const QStringList &args, const QStringList &allowed, QHash<QString, QString> *out, QString *error)
{
    for (qsizetype i = 1; i < args.size(); ++i) {
        QString key = args[i];
        QString value;
        if (!key.startsWith(QLatin1String("--"))) {
            *error = QStringLiteral("unexpected argument \"%1\"").arg(key);
            return false;
        }
        const qsizetype eq = key.indexOf(u'=');
        if (eq > 0) {
            value = key.mid(eq + 1);
            key = key.left(eq);
        } else {
            if (i + 1 >= args.size()) {
                *error = QStringLiteral("%1 needs a value").arg(key);
                return false;
            }
            value = args[++i];
        }
        key = key.mid(2);
        if (!allowed.contains(key)) {
            *error = QStringLiteral("unknown option --%1").arg(key);
            return false;
        }
        if (out->contains(key)) {
            *error = QStringLiteral("--%1 is given twice").arg(key);
            return false;
        }
        out->insert(key, value);
    }
    return true;
}

std::unique_ptr<Db> openDatabase(const Config &config, OpenMode mode, QTextStream &err)
{
    QString error;
    const auto url = StorageUrl::parse(config.storage.url);
    if (!url) {
        err << "storage.url: " << url.error() << '\n';
        return nullptr;
    }
    OpenOptions options;
    options.mode = mode;
    auto db = takeValue(Db::open(*url, QStringLiteral("cli"), options), &error);
    if (!db && mode == OpenMode::ReadOnly) {
        // A stopped receiver's SQLite file may lack its WAL index, which a read-only connection
        // cannot create; a normal connection can (and these commands only read through it).
        options.mode = OpenMode::ReadWrite;
        db = takeValue(Db::open(*url, QStringLiteral("cli"), options), &error);
    }
    if (!db) {
        err << "cannot open the database " << url->redacted() << ": " << error << '\n';
        return nullptr;
    }
    const auto readVersion = schemaVersion(*db);
    const int version = readVersion.value_or(-1);
    if (version != kSchemaVersion) {
        if (version < 0)
            err << "cannot read the schema version: " << readVersion.error() << '\n';
        else
            err << "the database schema is at version " << version << " but this build needs "
                << kSchemaVersion << "; run `redrived migrate`\n";
        return nullptr;
    }
    return db;
}

// A token command's database, opened for writing, with its transaction begun (the token change
// and its audit entry commit together); empty, with the reason on `err`, when either failed.
struct TokenWrite {
    std::unique_ptr<Db> db;
    std::unique_ptr<Transaction> tx; // declared after db: it ends before the database closes
};
std::optional<TokenWrite> beginTokenWrite(const Config &config, QTextStream &err)
{
    TokenWrite w;
    w.db = openDatabase(config, OpenMode::ReadWrite, err);
    if (!w.db)
        return std::nullopt;
    w.tx = std::make_unique<Transaction>(*w.db);
    if (auto begun = w.tx->begin(); !begun) {
        err << "cannot start a transaction: " << begun.error() << '\n';
        return std::nullopt;
    }
    return w;
}

// Who ran the command, as recorded in the audit log: the account of the process's real user id.
// $USER and $SUDO_USER are whatever the caller sets, so they never name the actor; sudo's
// $SUDO_USER is kept beside it as a claim (details.sudo_user), worth exactly what sudo vouches.
QString cliActor()
{
    const uid_t uid = ::getuid();
    const passwd *pw = ::getpwuid(uid);
    const QString user = pw && pw->pw_name && *pw->pw_name ? QString::fromLocal8Bit(pw->pw_name)
                                                           : QStringLiteral("uid%1").arg(uid);
    return QStringLiteral("cli:") + user.left(64);
}

audit::AuditRecord cliRecord(const QString &action, const QString &target, QJsonObject details)
{
    const QString sudoUser = qEnvironmentVariable("SUDO_USER").left(64);
    if (!sudoUser.isEmpty())
        details.insert(QStringLiteral("sudo_user"), sudoUser);
    return audit::AuditRecord { cliActor(), toString(Role::Admin), action, target, QString(), details };
}

QString isoOrNever(const std::optional<qint64> &ms)
{
    return ms ? isoUtc(*ms) : QStringLiteral("never");
}

int tokenCreate(const Config &config, const QHash<QString, QString> &opts, QTextStream &out, QTextStream &err,
    const Clock &clock)
{
    const QString name = opts.value(QStringLiteral("name"));
    if (!access::isValidTokenName(name)) {
        err << "--name must be 1-64 characters of A-Z a-z 0-9 . _ @ -\n" << kTokenUsage;
        return kUsage;
    }
    // The person the token belongs to: four eyes compares owners, so one person's laptop and
    // phone tokens cannot approve each other's requests.
    const QString owner = opts.value(QStringLiteral("owner"));
    if (!access::isValidTokenOwner(owner)) {
        err << (owner.isEmpty() ? "--owner is required (the person the token belongs to)\n"
                                : "--owner must be 1-64 characters of A-Z a-z 0-9 . _ @ -\n")
            << kTokenUsage;
        return kUsage;
    }
    const auto role = roleFromString(opts.value(QStringLiteral("role")));
    if (!role) {
        err << "--role must be one of " << allRoleNames().join(QLatin1String(", ")) << '\n' << kTokenUsage;
        return kUsage;
    }
    std::optional<qint64> expiresAt;
    if (opts.contains(QStringLiteral("expires"))) {
        const auto ms = parseDuration(opts.value(QStringLiteral("expires")));
        if (!ms || *ms <= 0) {
            err << "--expires must be a duration such as 90d, 12h or 30m\n";
            return kUsage;
        }
        expiresAt = clock.nowMs() + *ms;
    }
    auto writing = beginTokenWrite(config, err);
    if (!writing)
        return kUsage;
    const std::unique_ptr<Db> &db = writing->db;
    Transaction &tx = *writing->tx;
    access::CreateFailure failure = access::CreateFailure::None;
    const auto created = access::createApiToken(*db, name, owner, *role, expiresAt, clock.nowMs(), &failure);
    if (!created) {
        err << created.error() << '\n';
        // A name or owner that differs from an active one only by case is a usage error: the
        // command line has to change, not the state.
        const bool caseOnly = failure == access::CreateFailure::CaseOnlyName
            || failure == access::CreateFailure::CaseOnlyOwner;
        return caseOnly || failure == access::CreateFailure::Database ? kUsage : kFailed;
    }
    QJsonObject details { { QStringLiteral("role"), toString(*role) }, { QStringLiteral("owner"), owner },
        { QStringLiteral("expires_at"),
            expiresAt ? QJsonValue(isoUtc(*expiresAt)) : QJsonValue(QJsonValue::Null) } };
    const auto record = cliRecord(QStringLiteral("token_created"), QStringLiteral("token:") + name, details);
    const auto appended = audit::appendAuditEntry(*db, record, clock.nowMs());
    if (!committed(appended, tx, err, "cannot save the token: "))
        return kUsage;
    // The token alone on stdout (TOKEN=$(redrived token create …)); the explanation on stderr.
    out << created->secret << '\n';
    out.flush();
    err << "Created token \"" << name << "\" for " << owner << " (role " << toString(*role) << ", expires "
        << isoOrNever(expiresAt)
        << "). It is shown only this once: store it now. Only its SHA-256 is kept.\n";
    return kOk;
}

int tokenRevoke(
    const Config &config, const QHash<QString, QString> &opts, QTextStream &err, const Clock &clock)
{
    const QString name = opts.value(QStringLiteral("name"));
    if (name.isEmpty()) {
        err << "--name is required\n" << kTokenUsage;
        return kUsage;
    }
    auto writing = beginTokenWrite(config, err);
    if (!writing)
        return kUsage;
    const std::unique_ptr<Db> &db = writing->db;
    Transaction &tx = *writing->tx;
    bool found = false;
    if (auto revoked = access::revokeApiToken(*db, name, clock.nowMs(), &found); !revoked) {
        err << revoked.error() << '\n';
        return found ? kUsage : kFailed;
    }
    const auto record = cliRecord(QStringLiteral("token_revoked"), QStringLiteral("token:") + name, {});
    const auto appended = audit::appendAuditEntry(*db, record, clock.nowMs());
    if (!committed(appended, tx, err, "cannot revoke the token: "))
        return kUsage;
    err << "Revoked token \"" << name << "\"; running receivers refuse it within 2 seconds.\n";
    return kOk;
}

int tokenList(const Config &config, QTextStream &out, QTextStream &err, const Clock &clock)
{
    auto db = openDatabase(config, OpenMode::ReadOnly, err);
    if (!db)
        return kUsage;
    const auto listed = access::listApiTokens(*db);
    if (!listed) {
        err << listed.error() << '\n';
        return kUsage;
    }
    const QList<access::ApiToken> &tokens = *listed;
    out << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
               .arg(QStringLiteral("NAME"), -24)
               .arg(QStringLiteral("OWNER"), -16)
               .arg(QStringLiteral("ROLE"), -8)
               .arg(QStringLiteral("STATE"), -8)
               .arg(QStringLiteral("EXPIRES"), -24)
               .arg(QStringLiteral("LAST USED"));
    for (const auto &t : std::as_const(tokens)) {
        const auto state = access::tokenState(t, clock.nowMs());
        const QString stateName = state == access::TokenState::Valid ? QStringLiteral("valid")
            : state == access::TokenState::Expired                   ? QStringLiteral("expired")
                                                                     : QStringLiteral("revoked");
        out << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                   .arg(t.name, -24)
                   .arg(t.owner, -16)
                   .arg(toString(t.role), -8)
                   .arg(stateName, -8)
                   .arg(isoOrNever(t.expiresAt), -24)
                   .arg(isoOrNever(t.lastUsedAt));
    }
    return kOk;
}

int auditVerify(const Config &config, const QHash<QString, QString> &opts, QTextStream &out, QTextStream &err)
{
    audit::VerifyOptions options;
    if (opts.contains(QStringLiteral("checkpoint"))) {
        auto checkpoint = audit::Checkpoint::readFile(opts.value(QStringLiteral("checkpoint")));
        if (!checkpoint) {
            err << checkpoint.error() << '\n';
            return kUsage;
        }
        options.checkpoint = std::move(*checkpoint);
    }
    auto db = openDatabase(config, OpenMode::ReadOnly, err);
    if (!db)
        return kUsage;
    // The same check GET audit/verify makes: against --checkpoint, and against the last head this
    // receiver signed (kept next to its key, not in the database).
    const auto verified = audit::verifyAuditLog(*db, options, config.admin.auditKeyFile);
    if (!verified) {
        err << verified.error() << '\n';
        return kUsage;
    }
    const audit::VerifyResult &result = verified->result;
    if (verified->headUnreadable) {
        err << "audit log BROKEN: " << result.problem << '\n';
        return kFailed;
    }
    if (!result.ok) {
        err << "audit log BROKEN";
        if (result.firstBadSeq)
            err << " at seq " << *result.firstBadSeq;
        err << ": " << result.problem;
        if (verified->brokenAtLastSigned)
            err << " (checked against the last head this receiver signed)";
        err << '\n';
        err << result.count << " entries before it are intact (head seq " << result.head.seq << ").\n";
        return kFailed;
    }
    out << "audit log intact: " << result.count << " entries, head seq " << result.head.seq << " hash "
        << result.head.hash << '\n';
    const auto consistentWith
        = [&out](const std::optional<audit::Checkpoint> &checkpoint, const char *which) {
              if (checkpoint)
                  out << "consistent with the " << which << "checkpoint of seq " << checkpoint->seq
                      << " signed at " << isoUtc(checkpoint->atMs) << " by key "
                      << audit::SigningKey::keyIdOf(checkpoint->publicKey) << '\n';
          };
    consistentWith(options.checkpoint, "");
    consistentWith(verified->lastSigned, "last signed ");
    return kOk;
}

int auditCheckpoint(const Config &config, const QHash<QString, QString> &opts, QTextStream &out,
    QTextStream &err, const Clock &clock)
{
    const QString keyFile = config.admin.auditKeyFile;
    if (keyFile.isEmpty()) {
        err << "admin.audit_key_file is not set in " << config.path << "; signed checkpoints need it\n";
        return kUsage;
    }
    if (!QFileInfo::exists(keyFile)) {
        err << "the audit key " << keyFile
            << " does not exist yet; start redrived once (it creates the key), "
            << "so the key belongs to the receiver's user\n";
        return kUsage;
    }
    auto loaded = audit::SigningKey::load(keyFile);
    if (!loaded) {
        err << loaded.error() << '\n';
        return kUsage;
    }
    const std::unique_ptr<audit::SigningKey> key = std::move(*loaded);
    auto db = openDatabase(config, OpenMode::ReadOnly, err);
    if (!db)
        return kUsage;
    const auto guarded
        = audit::makeGuardedCheckpoint(*db, *key, audit::signedHeadPath(keyFile), clock.nowMs());
    if (guarded.outcome == audit::GuardedCheckpoint::Outcome::Refused) {
        err << "refusing to sign the audit log";
        if (guarded.firstBadSeq)
            err << " (first bad entry: seq " << *guarded.firstBadSeq << ")";
        err << ": " << guarded.problem << '\n';
        return kFailed;
    }
    if (!guarded.checkpoint) {
        err << "cannot make a checkpoint: " << guarded.problem << '\n';
        return kUsage;
    }
    const auto &cp = guarded.checkpoint;
    if (opts.contains(QStringLiteral("out"))) {
        if (auto written = cp->writeFile(opts.value(QStringLiteral("out"))); !written) {
            err << written.error() << '\n';
            return kUsage;
        }
        err << "checkpoint of seq " << cp->seq << " written to " << opts.value(QStringLiteral("out")) << '\n';
    } else {
        out << QJsonDocument(cp->toJson()).toJson(QJsonDocument::Indented);
    }
    return kOk;
}

using Options = QHash<QString, QString>;

// One subcommand of `token` or `audit`: its word, the --options it accepts, and what runs it.
struct Subcommand {
    const char *name;
    QStringList options;
    std::function<int(const Options &)> run;
};

// Runs the subcommand args[0] names with its options parsed; bad options or an unknown word
// print why and the usage, and exit with kUsage.
int runSubcommand(
    const QStringList &args, const std::vector<Subcommand> &subcommands, const char *usage, QTextStream &err)
{
    const QString word = args.value(0);
    for (const Subcommand &sub : subcommands) {
        if (word != QLatin1String(sub.name))
            continue;
        Options opts;
        QString error;
        if (!parseOptions(args, sub.options, &opts, &error)) {
            err << error << '\n' << usage;
            return kUsage;
        }
        return sub.run(opts);
    }
    err << usage;
    return kUsage;
}
} // namespace

int tokenCommand(
    const Config &config, const QStringList &args, QTextStream &out, QTextStream &err, const Clock &clock)
{
    return runSubcommand(args,
        { { "create",
              { QStringLiteral("name"), QStringLiteral("owner"), QStringLiteral("role"),
                  QStringLiteral("expires") },
              [&](const Options &opts) { return tokenCreate(config, opts, out, err, clock); } },
            { "revoke", { QStringLiteral("name") },
                [&](const Options &opts) { return tokenRevoke(config, opts, err, clock); } },
            { "list", {}, [&](const Options &) { return tokenList(config, out, err, clock); } } },
        kTokenUsage, err);
}

int auditCommand(
    const Config &config, const QStringList &args, QTextStream &out, QTextStream &err, const Clock &clock)
{
    return runSubcommand(args,
        { { "verify", { QStringLiteral("checkpoint") },
              [&](const Options &opts) { return auditVerify(config, opts, out, err); } },
            { "checkpoint", { QStringLiteral("out") },
                [&](const Options &opts) { return auditCheckpoint(config, opts, out, err, clock); } } },
        kAuditUsage, err);
}

} // namespace redrive::admin
