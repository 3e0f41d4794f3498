// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "secretspec.h"

#include "crypto/crypto.h"
#include "util/privatefile.h"

#include <QFile>

namespace redrive::config_detail {

std::optional<QByteArray> resolveSecretValue(const QString &spec, QString *reason)
{
    if (spec.startsWith(QLatin1String("env:"))) {
        const QString name = spec.mid(4);
        if (name.isEmpty()) {
            *reason = QStringLiteral("env: needs a variable name");
            return std::nullopt;
        }
        if (!qEnvironmentVariableIsSet(name.toLocal8Bit().constData())) {
            *reason = QStringLiteral("environment variable %1 is not set").arg(name);
            return std::nullopt;
        }
        QByteArray value = qgetenv(name.toLocal8Bit().constData());
        if (value.isEmpty()) {
            *reason = QStringLiteral("environment variable %1 is empty").arg(name);
            return std::nullopt;
        }
        return value;
    }
    QString path;
    bool fromFile = false;
    if (spec.startsWith(QLatin1String("credential:"))) {
        // systemd's LoadCredential=NAME:PATH puts the secret in $CREDENTIALS_DIRECTORY/NAME.
        const QString name = spec.mid(11);
        if (name.isEmpty() || name.contains(u'/') || name == u"." || name == u"..") {
            *reason = QStringLiteral("credential: needs a credential name without '/'");
            return std::nullopt;
        }
        const QString directory = qEnvironmentVariable("CREDENTIALS_DIRECTORY");
        if (directory.isEmpty()) {
            *reason = QStringLiteral("credential %1 needs $CREDENTIALS_DIRECTORY, which systemd sets for a "
                                     "unit with LoadCredential=%1:PATH")
                          .arg(name);
            return std::nullopt;
        }
        path = directory + u'/' + name;
        fromFile = true;
    } else if (spec.startsWith(QLatin1String("file:"))) {
        path = spec.mid(5);
        fromFile = true;
    }
    if (fromFile) {
        // systemd hands credentials over privately (0400, the service's own); a file: secret is
        // whatever the administrator made, so the mode of what was opened is checked before use.
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *reason = QStringLiteral("cannot read secret file %1: %2").arg(path, file.errorString());
            return std::nullopt;
        }
        if (spec.startsWith(QLatin1String("file:"))) {
            if (QString problem = privateFileProblem(file.handle(), path, QStringLiteral("secret file"));
                !problem.isEmpty()) {
                *reason = problem;
                return std::nullopt;
            }
        }
        QByteArray value = file.read(64LL * 1024);
        // A trailing newline from `echo secret > file` is not part of the secret.
        while (value.endsWith('\n') || value.endsWith('\r'))
            value.chop(1);
        if (value.isEmpty()) {
            *reason = QStringLiteral("secret file %1 is empty").arg(path);
            return std::nullopt;
        }
        return value;
    }
    if (spec.isEmpty()) {
        *reason = QStringLiteral("secret is empty");
        return std::nullopt;
    }
    return spec.toUtf8();
}

QString secretLabel(const QString &spec, const QString &keyPath)
{
    if (spec.startsWith(QLatin1String("env:")) || spec.startsWith(QLatin1String("file:"))
        || spec.startsWith(QLatin1String("credential:")))
        return spec;
    return keyPath; // a literal: name its position, never its value
}

std::optional<QByteArray> decodeWhsec(const QByteArray &value)
{
    if (!value.startsWith("whsec_"))
        return std::nullopt;
    auto decoded = crypto::decodeBase64(QByteArrayView(value).sliced(6));
    if (!decoded || decoded->isEmpty())
        return std::nullopt;
    return decoded;
}

} // namespace redrive::config_detail
