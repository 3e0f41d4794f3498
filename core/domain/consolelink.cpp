// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consolelink.h"

#include <QUrl>
#include <QUrlQuery>

namespace redrive {

namespace {

constexpr int kMaxIdLength = 200; // a destination name; ids are far shorter

struct TargetName {
    LinkTarget target;
    const char *name;
};
constexpr TargetName kTargets[] = {
    { LinkTarget::Event, "event" },
    { LinkTarget::Incident, "incident" },
    { LinkTarget::Replay, "replay" },
    { LinkTarget::Destination, "destination" },
};

bool positiveNumber(const QString &id)
{
    if (id.isEmpty() || id.size() > 18 || id.startsWith(QLatin1Char('0')))
        return false;
    for (const QChar c : id) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    }
    return true;
}

} // namespace

QString linkTargetName(LinkTarget target)
{
    for (const auto &t : kTargets) {
        if (t.target == target)
            return QString::fromLatin1(t.name);
    }
    return {};
}

QString ConsoleLink::toString() const
{
    QString text = QStringLiteral("redrive://%1/%2")
                       .arg(linkTargetName(target), QString::fromLatin1(QUrl::toPercentEncoding(id)));
    if (!profile.isEmpty())
        text += QStringLiteral("?profile=") + QString::fromLatin1(QUrl::toPercentEncoding(profile));
    return text;
}

Result<ConsoleLink> parseConsoleLink(const QString &text)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.scheme() != QLatin1String("redrive"))
        return Failure(QStringLiteral("not a redrive:// link"));
    ConsoleLink link;
    const QString kind = url.host();
    bool known = false;
    for (const auto &t : kTargets) {
        if (kind == QLatin1String(t.name)) {
            link.target = t.target;
            known = true;
        }
    }
    if (!known)
        return Failure(QStringLiteral("unknown link kind \"%1\" (event, incident, replay or destination)")
                           .arg(kind.left(40)));
    // One path segment (an encoded "/" inside it is part of the name), then decoded.
    QString segment = url.path(QUrl::FullyEncoded);
    if (segment.startsWith(QLatin1Char('/')))
        segment.remove(0, 1);
    if (segment.isEmpty())
        return Failure(QStringLiteral("the link names no %1").arg(kind));
    const QString path = QUrl::fromPercentEncoding(segment.toLatin1());
    if (path.size() > kMaxIdLength || segment.contains(QLatin1Char('/')))
        return Failure(QStringLiteral("the link's %1 is not one name").arg(kind));
    if (link.target != LinkTarget::Destination && !positiveNumber(path))
        return Failure(
            QStringLiteral("a %1 link needs a positive number, not \"%2\"").arg(kind, path.left(40)));
    link.id = path;
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key != QLatin1String("profile"))
            return Failure(QStringLiteral("unknown link parameter \"%1\"").arg(key.left(40)));
        link.profile = value;
    }
    if (link.profile.size() > kMaxIdLength)
        return Failure(QStringLiteral("the link's profile name is too long"));
    return link;
}

} // namespace redrive
