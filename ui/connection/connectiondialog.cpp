// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connectiondialog.h"

#include "common/accessibleparts.h"
#include "common/statuspalette.h"
#include "connection/connector.h"
#include "connection/session.h"
#include "secrets/secretstore.h"

#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

// Every field carries its accessible name itself: several sit in a row with a Browse… button,
// where the form label names the row, not the field a screen reader lands on.
QLineEdit *lineEdit(const QString &objectName, const QString &accessibleName, QWidget *parent,
    const QString &placeholder = {})
{
    auto *e = new QLineEdit(parent);
    e->setObjectName(objectName);
    e->setAccessibleName(accessibleName);
    e->setPlaceholderText(placeholder);
    return e;
}

// `edit` with a Browse… button beside it that fills it from an open-file dialog titled `title`.
QWidget *withBrowse(QLineEdit *edit, const QString &title, const QString &filter)
{
    auto *w = new QWidget;
    auto *l = new QHBoxLayout(w);
    auto *browse
        = new QPushButton(QCoreApplication::translate("redrive::ui::ConnectionDialog", "Browse…"), w);
    QObject::connect(browse, &QPushButton::clicked, edit, [edit, title, filter] {
        const QString f = QFileDialog::getOpenFileName(edit->window(), title, edit->text(), filter);
        if (!f.isEmpty())
            edit->setText(f);
    });
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(edit, 1);
    l->addWidget(browse);
    return w;
}

QString tokenForThisRunText()
{
    return QCoreApplication::translate("redrive::ui::ConnectionDialog",
        "The API token was handed over for this run only: it is used for this connection and stored nowhere.");
}

} // namespace

ConnectionDialog::ConnectionDialog(ProfileStore &profiles, SecretStore &secrets, QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_secrets(secrets)
    , m_connector(new Connector(secrets, this))
    , m_profileCombo(new QComboBox(this))
    , m_name(lineEdit(QStringLiteral("nameEdit"), tr("Profile name"), this, tr("e.g. production-eu")))
    , m_environment(
          lineEdit(QStringLiteral("environmentEdit"), tr("Environment"), this, tr("production, staging, …")))
    , m_colourButton(new QPushButton(this))
    , m_kind(new QComboBox(this))
    , m_kindPages(new QStackedWidget(this))
    , m_sqlitePath(lineEdit(QStringLiteral("sqlitePathEdit"), tr("Database file"), this,
          QStringLiteral("/var/lib/redrive/redrive.db")))
    , m_pgHost(lineEdit(QStringLiteral("pgHostEdit"), tr("PostgreSQL host"), this))
    , m_pgPort(new QSpinBox(this))
    , m_pgDatabase(lineEdit(QStringLiteral("pgDatabaseEdit"), tr("PostgreSQL database"), this))
    , m_pgUser(lineEdit(QStringLiteral("pgUserEdit"), tr("PostgreSQL user"), this))
    , m_pgSslMode(new QComboBox(this))
    , m_pgPassword(lineEdit(QStringLiteral("pgPasswordEdit"), tr("PostgreSQL password"), this,
          tr("leave empty to use the keychain")))
    , m_adminUrl(lineEdit(QStringLiteral("adminUrlEdit"), tr("Admin API address"), this,
          QStringLiteral("https://redrive.internal:8081")))
    , m_caFile(
          lineEdit(QStringLiteral("caFileEdit"), tr("CA certificate file"), this, tr("optional PEM file")))
    , m_receiverConfig(lineEdit(QStringLiteral("receiverConfigEdit"), tr("Receiver configuration file"), this,
          tr("optional copy of redrived.toml, for projected retry times")))
    , m_token(lineEdit(
          QStringLiteral("tokenEdit"), tr("Admin API token"), this, tr("leave empty to use the keychain")))
    , m_remember(new QCheckBox(tr("Remember the password and token in the system keychain"), this))
    , m_keychainStatus(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_progress(new QLabel(this))
    , m_connect(new QPushButton(tr("Connect"), this))
    , m_sslWarning(new QLabel(this))
    , m_replicaLagWarn(lineEdit(QStringLiteral("replicaLagWarnEdit"),
          tr("Warn when a standby is behind by more than (seconds)"), this,
          tr("seconds, when the database is a hot standby")))
{
    setObjectName(QStringLiteral("connectionDialog"));
    setWindowTitle(tr("Connect to a Redrive receiver"));
    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    m_profileCombo->setAccessibleName(tr("Profile"));
    m_colourButton->setObjectName(QStringLiteral("colourButton"));
    m_kind->setObjectName(QStringLiteral("databaseKind"));
    m_kind->setAccessibleName(tr("Database kind"));
    m_kind->addItems({ tr("SQLite file"), tr("PostgreSQL") });
    m_pgPort->setObjectName(QStringLiteral("pgPortSpin"));
    m_pgPort->setRange(1, 65535);
    m_pgPort->setValue(5432);
    m_pgSslMode->setObjectName(QStringLiteral("pgSslMode"));
    m_pgSslMode->addItems(
        { QStringLiteral("verify-full"), QStringLiteral("verify-ca"), QStringLiteral("require"),
            QStringLiteral("prefer"), QStringLiteral("allow"), QStringLiteral("disable") });
    m_pgSslMode->setAccessibleName(tr("PostgreSQL TLS mode (sslmode)"));
    // A weaker sslmode is allowed (a trusted network, a local socket) but never silently.
    m_sslWarning->setObjectName(QStringLiteral("sslWarningLabel"));
    speakAsStatus(m_sslWarning, tr("TLS warning"));
    m_sslWarning->setTextFormat(Qt::PlainText);
    m_sslWarning->setWordWrap(true);
    m_sslWarning->setStyleSheet(noticeStyle(Tone::Caution));
    m_sslWarning->hide();
    m_pgPassword->setEchoMode(QLineEdit::Password);
    m_token->setEchoMode(QLineEdit::Password);
    m_remember->setObjectName(QStringLiteral("rememberCheck"));
    m_remember->setChecked(true);
    m_keychainStatus->setObjectName(QStringLiteral("keychainStatus"));
    m_keychainStatus->setTextFormat(Qt::PlainText);
    m_keychainStatus->setWordWrap(true);
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(noticeStyle(Tone::Bad));
    m_problem->hide();
    m_progress->setObjectName(QStringLiteral("progressLabel"));
    m_progress->setTextFormat(Qt::PlainText);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    m_connect->setDefault(true);

    auto *sqlitePage = new QWidget;
    auto *sqliteForm = new QFormLayout(sqlitePage);
    sqliteForm->setContentsMargins(0, 0, 0, 0);
    sqliteForm->addRow(tr("Database file"),
        withBrowse(
            m_sqlitePath, tr("Receiver database"), tr("SQLite databases (*.db *.sqlite);;All files (*)")));
    auto *pgPage = new QWidget;
    auto *pgForm = new QFormLayout(pgPage);
    pgForm->setContentsMargins(0, 0, 0, 0);
    pgForm->addRow(tr("Host"), m_pgHost);
    pgForm->addRow(tr("Port"), m_pgPort);
    pgForm->addRow(tr("Database"), m_pgDatabase);
    pgForm->addRow(tr("User"), m_pgUser);
    pgForm->addRow(tr("Password"), m_pgPassword);
    pgForm->addRow(tr("TLS (sslmode)"), m_pgSslMode);
    pgForm->addRow(m_sslWarning);
    pgForm->addRow(tr("Standby lag warning (s)"), m_replicaLagWarn);
    m_kindPages->addWidget(sqlitePage);
    m_kindPages->addWidget(pgPage);

    auto *newButton = new QPushButton(tr("New"), this);
    newButton->setObjectName(QStringLiteral("newProfileButton"));
    auto *deleteButton = new QPushButton(tr("Delete"), this);
    deleteButton->setObjectName(QStringLiteral("deleteProfileButton"));
    auto *profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profileCombo, 1);
    profileRow->addWidget(newButton);
    profileRow->addWidget(deleteButton);

    auto *form = new QFormLayout;
    form->addRow(tr("Profile"), profileRow);
    form->addRow(tr("Name"), m_name);
    auto *envRow = new QHBoxLayout;
    envRow->addWidget(m_environment, 1);
    envRow->addWidget(m_colourButton);
    form->addRow(tr("Environment"), envRow);
    form->addRow(tr("Database"), m_kind);
    form->addRow(m_kindPages);
    form->addRow(tr("Admin API"), m_adminUrl);
    form->addRow(tr("CA certificate"),
        withBrowse(m_caFile, tr("CA certificate"), tr("PEM certificates (*.pem *.crt);;All files (*)")));
    form->addRow(tr("API token"), m_token);
    form->addRow(tr("Receiver config"), m_receiverConfig);
    form->addRow(QString(), m_remember);

    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_connect, QDialogButtonBox::AcceptRole);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    connect(m_connect, &QPushButton::clicked, this, &ConnectionDialog::startConnect);
    connect(cancel, &QPushButton::clicked, this, [this] {
        m_connector->cancel();
        reject();
    });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_keychainStatus);
    layout->addWidget(m_problem);
    layout->addWidget(m_progress);
    layout->addWidget(buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateKindPage);
    connect(m_pgSslMode, &QComboBox::currentTextChanged, this, &ConnectionDialog::updateSslWarning);
    connect(m_colourButton, &QPushButton::clicked, this, &ConnectionDialog::chooseColour);
    connect(newButton, &QPushButton::clicked, this, &ConnectionDialog::newProfile);
    connect(deleteButton, &QPushButton::clicked, this, &ConnectionDialog::deleteProfile);
    connect(m_profileCombo, &QComboBox::activated, this,
        [this](int index) { loadProfile(m_profileCombo->itemText(index)); });
    connect(m_connector, &Connector::progress, m_progress, &QLabel::setText);
    connect(m_connector, &Connector::keychainNotice, this, [this](const QString &text) {
        m_keychainStatus->setText(text);
        Q_EMIT keychainNotice(text);
    });
    connect(m_connector, &Connector::failed, this, &ConnectionDialog::showProblem);
    connect(m_connector, &Connector::connected, this, [this](Session *session) {
        m_progress->clear();
        m_connect->setEnabled(true);
        m_profiles.setLastUsed(session->profile().name);
        Q_EMIT sessionReady(session);
        accept();
    });

    m_profileCombo->addItems(m_profiles.names());
    const QString last = m_profiles.lastUsed();
    if (!last.isEmpty() && m_profiles.names().contains(last))
        selectProfile(last);
    else if (m_profileCombo->count() > 0)
        selectProfile(m_profileCombo->itemText(0));
    else
        newProfile();
    resize(560, sizeHint().height());
}

ConnectionDialog::~ConnectionDialog() = default;

void ConnectionDialog::selectProfile(const QString &name)
{
    const int i = m_profileCombo->findText(name);
    if (i >= 0)
        m_profileCombo->setCurrentIndex(i);
    loadProfile(name);
}

void ConnectionDialog::loadProfile(const QString &name)
{
    const ConnectionProfile p = m_profiles.load(name).value_or(ConnectionProfile {});
    m_name->setText(p.name);
    m_environment->setText(p.environment);
    m_colour = p.colour;
    m_colourButton->setText(p.colour.name());
    m_colourButton->setStyleSheet(swatchStyle(p.colour));
    m_kind->setCurrentIndex(p.databaseKind == ConnectionProfile::DatabaseKind::Postgres ? 1 : 0);
    m_sqlitePath->setText(p.sqlitePath);
    m_pgHost->setText(p.pgHost);
    m_pgPort->setValue(p.pgPort);
    m_pgDatabase->setText(p.pgDatabase);
    m_pgUser->setText(p.pgUser);
    m_pgSslMode->setCurrentText(p.pgSslMode);
    m_pgPassword->clear();
    m_adminUrl->setText(p.adminUrl.toString());
    m_caFile->setText(p.caCertificateFile);
    m_receiverConfig->setText(p.receiverConfigFile);
    m_replicaLagWarn->setText(QString::number(p.replicaLagWarnSeconds));
    m_token->clear();
    m_tokenForThisRun = false;
    m_problem->hide();
    updateKindPage();
    probeKeychain();
}

void ConnectionDialog::useTokenForThisRun(const QString &token)
{
    m_token->setText(token);
    m_tokenForThisRun = true;
    m_remember->setChecked(false);
    m_remember->setEnabled(false);
    m_keychainStatus->setText(tokenForThisRunText());
}

void ConnectionDialog::probeKeychain()
{
    const ConnectionProfile p = profileFromFields();
    m_keychainStatus->setText(tr("Checking the keychain…"));
    // A new profile has nothing stored yet, but whether a keychain exists at all is worth
    // saying before anyone types a secret.
    SecretJob *job
        = m_secrets.read(p.name.isEmpty() ? SecretStore::keyFor(QStringLiteral("."), QStringLiteral("probe"))
                                          : p.apiTokenKey());
    const QString asked = p.name;
    connect(job, &SecretJob::finished, this, [this, asked](const SecretResult &r) {
        // Whether a token is stored depends on the profile; whether a keychain exists does not.
        if (m_name->text() != asked && r.status != SecretStatus::Unavailable)
            return;
        if (m_tokenForThisRun) {
            m_keychainStatus->setText(r.status == SecretStatus::Unavailable
                    ? tokenForThisRunText() + tr(" No keychain is available on this desktop.")
                    : tokenForThisRunText());
            return;
        }
        switch (r.status) {
        case SecretStatus::Ok:
            m_keychainStatus->setText(tr("A token for this profile is stored in the keychain."));
            m_remember->setEnabled(true);
            break;
        case SecretStatus::NotFound:
            m_keychainStatus->setText(asked.isEmpty()
                    ? tr("Secrets you type are kept in the system keychain.")
                    : tr("No token is stored for this profile yet; paste it above."));
            m_remember->setEnabled(true);
            break;
        case SecretStatus::Unavailable:
            m_keychainStatus->setText(tr("No keychain is available on this desktop. Passwords and tokens you "
                                         "type are used for this session only and are not stored anywhere."));
            m_remember->setChecked(false);
            m_remember->setEnabled(false);
            break;
        case SecretStatus::Denied:
        case SecretStatus::Failed:
            m_keychainStatus->setText(r.message);
            break;
        }
    });
}

ConnectionProfile ConnectionDialog::profileFromFields() const
{
    ConnectionProfile p;
    p.name = m_name->text().trimmed();
    p.environment = m_environment->text().trimmed();
    p.colour = m_colour.isValid() ? m_colour : p.colour;
    p.databaseKind = m_kind->currentIndex() == 1 ? ConnectionProfile::DatabaseKind::Postgres
                                                 : ConnectionProfile::DatabaseKind::Sqlite;
    p.sqlitePath = m_sqlitePath->text().trimmed();
    p.pgHost = m_pgHost->text().trimmed();
    p.pgPort = m_pgPort->value();
    p.pgDatabase = m_pgDatabase->text().trimmed();
    p.pgUser = m_pgUser->text().trimmed();
    p.pgSslMode = m_pgSslMode->currentText();
    const QString url = m_adminUrl->text().trimmed();
    p.adminUrl = url.isEmpty() ? QUrl() : QUrl(url, QUrl::StrictMode);
    p.caCertificateFile = m_caFile->text().trimmed();
    p.receiverConfigFile = m_receiverConfig->text().trimmed();
    bool lagOk = false;
    const QString lag = m_replicaLagWarn->text().trimmed();
    p.replicaLagWarnSeconds
        = lag.isEmpty() ? ConnectionProfile::kDefaultReplicaLagWarnSeconds : lag.toInt(&lagOk);
    if (!lag.isEmpty() && !lagOk)
        p.replicaLagWarnSeconds = -1;
    return p;
}

void ConnectionDialog::startConnect()
{
    if (m_highlighted) {
        m_highlighted->setStyleSheet(QString());
        m_highlighted = nullptr;
    }
    m_problem->hide();
    const ConnectionProfile p = profileFromFields();
    if (auto problem = p.validate()) {
        showProblem({ problem->field, problem->message, {} });
        return;
    }
    m_profiles.save(p);
    if (m_profileCombo->findText(p.name) < 0)
        m_profileCombo->addItem(p.name);
    m_profileCombo->setCurrentText(p.name);
    m_connect->setEnabled(false);
    Connector::Credentials typed;
    typed.databasePassword = m_pgPassword->text();
    typed.apiToken = m_token->text().trimmed();
    typed.remember = !m_tokenForThisRun && m_remember->isEnabled() && m_remember->isChecked();
    m_connector->start(p, typed);
}

void ConnectionDialog::showProblem(const ConnectionProblem &problem)
{
    m_connect->setEnabled(true);
    m_progress->clear();
    QString text = problem.summary;
    if (!problem.detail.isEmpty() && problem.detail != problem.summary)
        text += QLatin1String("\n\n") + tr("Details: %1").arg(problem.detail);
    m_problem->setText(text);
    m_problem->show();
    if (QWidget *w = fieldWidget(problem.field)) {
        w->setStyleSheet(invalidFieldStyle());
        w->setFocus();
        m_highlighted = w;
    }
}

QWidget *ConnectionDialog::fieldWidget(const QString &field) const
{
    if (field == u"name")
        return m_name;
    if (field == u"environment")
        return m_environment;
    if (field == u"sqlitePath")
        return m_sqlitePath;
    if (field == u"pgHost")
        return m_pgHost;
    if (field == u"pgPort")
        return m_pgPort;
    if (field == u"pgDatabase")
        return m_pgDatabase;
    if (field == u"pgUser")
        return m_pgUser;
    if (field == u"pgPassword")
        return m_pgPassword;
    if (field == u"pgSslMode")
        return m_pgSslMode;
    if (field == u"adminUrl")
        return m_adminUrl;
    if (field == u"caCertificate")
        return m_caFile;
    if (field == u"apiToken")
        return m_token;
    if (field == u"receiverConfig")
        return m_receiverConfig;
    if (field == u"replicaLagWarn")
        return m_replicaLagWarn;
    return nullptr;
}

void ConnectionDialog::updateSslWarning()
{
    const QString warning = profileFromFields().securityWarning();
    m_sslWarning->setText(warning);
    m_sslWarning->setVisible(!warning.isEmpty());
}

void ConnectionDialog::updateKindPage()
{
    m_kindPages->setCurrentIndex(m_kind->currentIndex());
    updateSslWarning();
    // Size the stack to the page shown, not to the tallest page.
    for (int i = 0; i < m_kindPages->count(); ++i)
        m_kindPages->widget(i)->setSizePolicy(QSizePolicy::Preferred,
            i == m_kindPages->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    m_kindPages->adjustSize();
    adjustSize();
}

void ConnectionDialog::chooseColour()
{
    const QColor c = QColorDialog::getColor(m_colour, this, tr("Environment colour"));
    if (!c.isValid())
        return;
    m_colour = c;
    m_colourButton->setText(c.name());
    m_colourButton->setStyleSheet(swatchStyle(c));
}

void ConnectionDialog::newProfile()
{
    m_profileCombo->setCurrentIndex(-1);
    loadProfile(QString());
    m_name->setFocus();
}

void ConnectionDialog::deleteProfile()
{
    const QString name = m_profileCombo->currentText();
    if (name.isEmpty())
        return;
    const auto p = m_profiles.load(name);
    m_profiles.remove(name);
    if (p) {
        // Remove its keychain entries too; failures here leave nothing readable behind.
        m_secrets.remove(p->apiTokenKey());
        m_secrets.remove(p->databasePasswordKey());
    }
    m_profileCombo->removeItem(m_profileCombo->currentIndex());
    if (m_profileCombo->count() > 0)
        selectProfile(m_profileCombo->itemText(0));
    else
        newProfile();
}

} // namespace redrive::ui
