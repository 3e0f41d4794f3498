// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "connection/connectionerrors.h"
#include "connection/connectionprofile.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace redrive {
class SecretStore;
}

namespace redrive::ui {

class Connector;
class ProfileStore;
class Session;

// Choose or edit a connection profile and connect. Secrets typed here go to the keychain only
// after a successful connection; when there is no keychain the dialog says so and keeps them in
// memory for this session only. Failures are explained next to the field at fault.
class ConnectionDialog final : public QDialog {
    Q_OBJECT
public:
    ConnectionDialog(ProfileStore &profiles, SecretStore &secrets, QWidget *parent = nullptr);
    ~ConnectionDialog() override;

    void selectProfile(const QString &name);
    [[nodiscard]] ConnectionProfile profileFromFields() const;
    // Connects with the fields as they are (the Connect button does the same).
    void connectNow() { startConnect(); }
    // A token handed over for this run only (`redrive --profile NAME --token-stdin`): it fills
    // the token field and is never written to the keychain or anywhere else. Choosing another
    // profile drops it.
    void useTokenForThisRun(const QString &token);

Q_SIGNALS:
    // Ownership passes to the receiver.
    void sessionReady(redrive::ui::Session *session);
    // Something about the keychain worth saying even after the dialog has closed.
    void keychainNotice(const QString &text);

private:
    void loadProfile(const QString &name);
    void probeKeychain();
    void startConnect();
    void showProblem(const ConnectionProblem &problem);
    void updateKindPage();
    void updateSslWarning();
    void chooseColour();
    void newProfile();
    void deleteProfile();
    [[nodiscard]] QWidget *fieldWidget(const QString &field) const;

    ProfileStore &m_profiles;
    SecretStore &m_secrets;
    Connector *m_connector;
    QColor m_colour;

    QComboBox *m_profileCombo;
    QLineEdit *m_name;
    QLineEdit *m_environment;
    QPushButton *m_colourButton;
    QComboBox *m_kind;
    QStackedWidget *m_kindPages;
    QLineEdit *m_sqlitePath;
    QLineEdit *m_pgHost;
    QSpinBox *m_pgPort;
    QLineEdit *m_pgDatabase;
    QLineEdit *m_pgUser;
    QComboBox *m_pgSslMode;
    QLineEdit *m_pgPassword;
    QLineEdit *m_adminUrl;
    QLineEdit *m_caFile;
    QLineEdit *m_receiverConfig;
    QLineEdit *m_token;
    QCheckBox *m_remember;
    QLabel *m_keychainStatus;
    QLabel *m_problem;
    QLabel *m_progress;
    QPushButton *m_connect;
    QLabel *m_sslWarning; // a PostgreSQL sslmode weaker than verify-full
    QLineEdit *m_replicaLagWarn; // seconds; the amber banner on a hot standby
    QWidget *m_highlighted = nullptr;
    bool m_tokenForThisRun = false;
};

} // namespace redrive::ui
