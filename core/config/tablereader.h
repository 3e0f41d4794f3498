// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Internal to core/config: a checked walk over one TOML table.
#include "config.h"

#include <QSet>
#include <QString>

#include <string_view>
#include <toml++/toml.h>

namespace redrive::config_detail {

inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Walks one TOML table, remembering which keys were read, so that anything left over is

// Walks one TOML table, remembering which keys were read, so that anything left over is
// reported as an unknown key (a typo in a config must not be silently ignored).
class TableReader {
public:
    TableReader(const toml::table &table, QString path, ConfigError *error)
        : m_table(table)
        , m_path(std::move(path))
        , m_error(error)
    { }

    [[nodiscard]] bool failed() const { return m_failed; }
    [[nodiscard]] QString keyPath(const QString &key) const
    {
        return m_path.isEmpty() ? key : m_path + u'.' + key;
    }

    bool fail(const QString &key, const QString &reason)
    {
        if (!m_failed) {
            m_failed = true;
            *m_error = ConfigError { keyPath(key), reason };
        }
        return false;
    }

    const toml::node *node(const char *key)
    {
        m_seen.insert(QString::fromLatin1(key));
        return m_table.get(key);
    }

    bool string(const char *key, QString &out, bool required = false)
    {
        const toml::node *n = node(key);
        if (!n)
            return required ? fail(QLatin1String(key), QStringLiteral("is required")) : true;
        if (const auto *v = n->as_string()) {
            out = qs(v->get());
            return true;
        }
        return fail(QLatin1String(key), QStringLiteral("must be a string"));
    }

    bool integer(const char *key, qint64 &out, qint64 min, qint64 max)
    {
        const toml::node *n = node(key);
        if (!n)
            return true;
        const auto *v = n->as_integer();
        if (!v)
            return fail(QLatin1String(key), QStringLiteral("must be an integer"));
        const qint64 value = v->get();
        if (value < min || value > max) {
            return fail(QLatin1String(key),
                QStringLiteral("must be between %1 and %2 (got %3)").arg(min).arg(max).arg(value));
        }
        out = value;
        return true;
    }

    bool integer(const char *key, int &out, int min, int max)
    {
        qint64 value = out;
        if (!integer(key, value, min, max))
            return false;
        out = static_cast<int>(value);
        return true;
    }

    bool number(const char *key, double &out, double min, double max)
    {
        const toml::node *n = node(key);
        if (!n)
            return true;
        double value = 0;
        if (const auto *f = n->as_floating_point())
            value = f->get();
        else if (const auto *i = n->as_integer())
            value = static_cast<double>(i->get());
        else
            return fail(QLatin1String(key), QStringLiteral("must be a number"));
        if (!std::isfinite(value) || value < min || value > max)
            return fail(QLatin1String(key), QStringLiteral("must be between %1 and %2").arg(min).arg(max));
        out = value;
        return true;
    }

    bool boolean(const char *key, bool &out)
    {
        const toml::node *n = node(key);
        if (!n)
            return true;
        if (const auto *v = n->as_boolean()) {
            out = v->get();
            return true;
        }
        return fail(QLatin1String(key), QStringLiteral("must be true or false"));
    }

    bool duration(const char *key, qint64 &outMs, qint64 minMs, qint64 maxMs)
    {
        const toml::node *n = node(key);
        if (!n)
            return true;
        std::optional<qint64> ms;
        if (const auto *s = n->as_string())
            ms = parseDuration(qs(s->get()));
        else if (const auto *i = n->as_integer())
            ms = i->get() >= 0 && i->get() < 1'000'000'000 ? std::optional<qint64>(i->get() * 1000)
                                                           : std::nullopt;
        if (!ms)
            return fail(QLatin1String(key),
                QStringLiteral("must be a duration such as \"500ms\", \"30s\", \"5m\", \"2h\" or \"1d\""));
        if (*ms < minMs || *ms > maxMs)
            return fail(
                QLatin1String(key), QStringLiteral("must be between %1 ms and %2 ms").arg(minMs).arg(maxMs));
        outMs = *ms;
        return true;
    }

    bool stringList(const char *key, QStringList &out, bool required = false)
    {
        const toml::node *n = node(key);
        if (!n)
            return required ? fail(QLatin1String(key), QStringLiteral("is required")) : true;
        const auto *arr = n->as_array();
        if (!arr)
            return fail(QLatin1String(key), QStringLiteral("must be an array of strings"));
        out.clear();
        for (std::size_t i = 0; i < arr->size(); ++i) {
            const toml::node *element = arr->get(i);
            const auto *s = element ? element->as_string() : nullptr;
            if (!s)
                return fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i),
                    QStringLiteral("must be a string"));
            out.append(qs(s->get()));
        }
        return true;
    }

    // Reports keys present in the table that no reader asked for.
    bool finish()
    {
        if (m_failed)
            return false;
        for (const auto &[k, v] : m_table) {
            const QString key = qs(k.str());
            if (!m_seen.contains(key))
                return fail(key, QStringLiteral("unknown key"));
        }
        return true;
    }

private:
    const toml::table &m_table;
    QString m_path;
    ConfigError *m_error;
    QSet<QString> m_seen;
    bool m_failed = false;
};

// Calls fn(table, "key[i]") for each table of an array of tables ([[key]]).
template<typename Fn>
bool forEachTableInArray(const toml::table &root, const char *key, ConfigError *error, Fn &&fn)
{
    const toml::node *n = root.get(key);
    if (!n)
        return true;
    const auto *arr = n->as_array();
    if (!arr) {
        *error = { QLatin1String(key),
            QStringLiteral("must be an array of tables ([[%1]])").arg(QLatin1String(key)) };
        return false;
    }
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const QString path = QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i);
        const toml::node *element = arr->get(i);
        const auto *t = element ? element->as_table() : nullptr;
        if (!t) {
            *error = { path, QStringLiteral("must be a table") };
            return false;
        }
        if (!fn(*t, path))
            return false;
    }
    return true;
}

} // namespace redrive::config_detail
