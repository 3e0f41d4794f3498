// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "config.h"
#include "secretspec.h"
#include "sections.h"
#include "tablereader.h"

#include <QHostAddress>

namespace redrive {

QString toString(ReconcileConfig::Provider provider)
{
    return provider == ReconcileConfig::Provider::GitHub ? QStringLiteral("github")
                                                         : QStringLiteral("stripe");
}

namespace config_detail {
namespace {

// Stripe keeps events for 30 days; GitHub lists deliveries of the last few days. A longer lookback
// asks for nothing more and only costs pages.
constexpr qint64 kMaxLookbackMs = 30LL * 86'400'000;
constexpr qint64 kMaxEveryMs = 7LL * 86'400'000;

bool isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    QHostAddress address;
    return address.setAddress(host) && address.isLoopback();
}

// "repos/OWNER/REPO/hooks/ID" or "orgs/ORG/hooks/ID": path segments of URL-safe characters, no
// empty segment, no "." or "..", so the configured hook can never climb out of the API's path.
bool isValidHook(const QString &hook)
{
    if (hook.isEmpty() || hook.size() > 300)
        return false;
    for (const QString &segment : hook.split(u'/')) {
        if (segment.isEmpty() || segment == u"." || segment == u"..")
            return false;
        for (QChar c : segment) {
            const char16_t u = c.unicode();
            const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')
                || u == u'-' || u == u'_' || u == u'.';
            if (!ok)
                return false;
        }
    }
    return true;
}

} // namespace

bool parseReconcile(const toml::node &node, const QString &path, SourceConfig &source, ConfigError *error)
{
    const auto *table = node.as_table();
    if (!table) {
        *error = ConfigError { path, QStringLiteral("must be a table ([sources.reconcile])") };
        return false;
    }
    TableReader r(*table, path, error);
    ReconcileConfig c;
    QString provider, apiUrl, credential, hook;
    r.string("provider", provider, true);
    r.string("api_url", apiUrl);
    r.string("credential", credential, true);
    r.string("hook", hook);
    // "0" (no unit) means "only when asked"; anything else is a duration.
    if (const toml::node *n = r.node("every")) {
        const auto *text = n->as_string();
        const auto *number = n->as_integer();
        if ((text && text->get() == "0") || (number && number->get() == 0))
            c.everyMs = 0;
        else if (!r.duration("every", c.everyMs, 1000, kMaxEveryMs))
            return false;
    }
    r.duration("lookback", c.lookbackMs, 60'000, kMaxLookbackMs);
    if (r.failed())
        return false;

    if (provider == u"stripe")
        c.provider = ReconcileConfig::Provider::Stripe;
    else if (provider == u"github")
        c.provider = ReconcileConfig::Provider::GitHub;
    else
        return r.fail(QStringLiteral("provider"), QStringLiteral("must be \"stripe\" or \"github\""));
    // The run compares the provider's ids with the ones this source stored: only the matching
    // scheme stores the same ids (Stripe's body `id`, GitHub's X-GitHub-Delivery).
    const SchemeKind expected
        = c.provider == ReconcileConfig::Provider::Stripe ? SchemeKind::Stripe : SchemeKind::GitHub;
    if (source.scheme != expected)
        return r.fail(QStringLiteral("provider"),
            QStringLiteral("provider \"%1\" needs a source with scheme \"%1\" (this one is \"%2\")")
                .arg(provider, toString(source.scheme)));

    if (apiUrl.isEmpty())
        apiUrl = c.provider == ReconcileConfig::Provider::Stripe ? QStringLiteral("https://api.stripe.com")
                                                                 : QStringLiteral("https://api.github.com");
    while (apiUrl.endsWith(u'/'))
        apiUrl.chop(1);
    const QUrl url(apiUrl, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != u"https" && scheme != u"http") || url.host().isEmpty() || url.hasQuery()
        || url.hasFragment() || !url.userInfo().isEmpty())
        return r.fail(QStringLiteral("api_url"),
            QStringLiteral("must be an absolute https URL without query, fragment or user info"));
    if (scheme == u"http" && !isLoopbackHost(url.host()))
        return r.fail(QStringLiteral("api_url"),
            QStringLiteral("plain http is only allowed for a loopback host; the credential must not cross "
                           "a network in the clear"));
    c.apiUrl = url;

    QString reason;
    const auto value = resolveSecretValue(credential, &reason);
    if (!value)
        return r.fail(QStringLiteral("credential"), reason);
    if (value->isEmpty() || value->contains('\r') || value->contains('\n'))
        return r.fail(QStringLiteral("credential"), QStringLiteral("is empty or holds a line break"));
    c.credential = Secret { secretLabel(credential, r.keyPath(QStringLiteral("credential"))), *value };

    if (c.provider == ReconcileConfig::Provider::GitHub) {
        if (hook.isEmpty())
            return r.fail(QStringLiteral("hook"),
                QStringLiteral("is required for provider \"github\", e.g. \"repos/OWNER/REPO/hooks/ID\""));
        if (!isValidHook(hook))
            return r.fail(QStringLiteral("hook"),
                QStringLiteral("must be API path segments such as \"repos/OWNER/REPO/hooks/ID\""));
        c.hook = hook;
    } else if (!hook.isEmpty()) {
        return r.fail(QStringLiteral("hook"), QStringLiteral("applies only to provider \"github\""));
    }
    if (!r.finish())
        return false;
    source.reconcile = c;
    return true;
}

} // namespace config_detail
} // namespace redrive
