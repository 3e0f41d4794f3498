// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "privatefile.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace redrive {
namespace {
QString octal(mode_t mode)
{
    return QStringLiteral("%1").arg(static_cast<uint>(mode & 07777), 4, 8, QLatin1Char('0'));
}
} // namespace

QString privateModeProblem(mode_t mode, gid_t fileGid, gid_t processGid)
{
    if ((mode & (S_IROTH | S_IWOTH)) != 0)
        return QStringLiteral("is accessible by other users (mode %1); run chmod o-rwx on it (0600, or 0640 "
                              "with the service's own group)")
            .arg(octal(mode));
    if ((mode & (S_IRGRP | S_IWGRP)) != 0 && fileGid != processGid)
        return QStringLiteral("is accessible by its group (gid %1, mode %2), which is not this process's "
                              "group (gid %3); run chmod g-rwx on it, or chgrp it to the service's group")
            .arg(fileGid)
            .arg(octal(mode))
            .arg(processGid);
    return {};
}

QString privateFileProblem(int fd, const QString &path, const QString &what)
{
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        return QStringLiteral("cannot examine %1 %2: %3")
            .arg(what, path, QString::fromLocal8Bit(std::strerror(e)));
    }
    const QString problem = privateModeProblem(st.st_mode, st.st_gid, ::getegid());
    return problem.isEmpty() ? QString() : what + u' ' + path + u' ' + problem;
}

QString privateFileProblem(const QString &path, const QString &what)
{
    struct stat st { };
    const QByteArray native = QFile::encodeName(path);
    if (::stat(native.constData(), &st) != 0) {
        const int e = errno;
        return QStringLiteral("cannot examine %1 %2: %3")
            .arg(what, path, QString::fromLocal8Bit(std::strerror(e)));
    }
    const QString problem = privateModeProblem(st.st_mode, st.st_gid, ::getegid());
    return problem.isEmpty() ? QString() : what + u' ' + path + u' ' + problem;
}

} // namespace redrive
