// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "retryschedules.h"

#include <QFile>

#include <toml++/toml.h>

namespace redrive {

const DestinationConfig *RetrySchedules::destination(QStringView name) const
{
    for (const DestinationConfig &d : destinations) {
        if (d.name == name)
            return &d;
    }
    return nullptr;
}

Result<RetrySchedules> readRetrySchedules(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Failure(QStringLiteral("%1 cannot be read: %2").arg(path, f.errorString()));
    auto out = parseRetrySchedules(f.readAll());
    if (!out)
        return Failure(path + QLatin1String(": ") + out.error());
    return out;
}

Result<RetrySchedules> parseRetrySchedules(const QByteArray &toml)
{
    toml::table root;
    try {
        root = toml::parse(std::string_view(toml.constData(), std::size_t(toml.size())));
    } catch (const toml::parse_error &e) {
        return Failure(
            QStringLiteral("not valid TOML (%1)")
                .arg(QString::fromUtf8(e.description().data(), qsizetype(e.description().size()))));
    }
    RetrySchedules out;
    if (const toml::table *delivery = root["delivery"].as_table()) {
        if (auto j = (*delivery)["jitter"].value<double>())
            out.jitter = *j;
    }
    if (const toml::array *sources = root["sources"].as_array()) {
        for (std::size_t i = 0; i < sources->size(); ++i) {
            const toml::table *t = sources->at(i).as_table();
            const toml::table *reconcile = t ? (*t)["reconcile"].as_table() : nullptr;
            const auto name = t ? (*t)["name"].value<std::string>() : std::nullopt;
            if (reconcile && name)
                out.reconciledSources.append({ QString::fromStdString(*name),
                    QString::fromStdString((*reconcile)["provider"].value_or(std::string())) });
        }
    }
    const toml::array *destinations = root["destinations"].as_array();
    if (!destinations)
        return out;
    for (std::size_t i = 0; i < destinations->size(); ++i) {
        const toml::table *t = destinations->at(i).as_table();
        if (!t)
            continue;
        DestinationConfig d;
        const auto name = (*t)["name"].value<std::string>();
        if (!name)
            return Failure(QStringLiteral("destinations[%1].name is missing").arg(i));
        d.name = QString::fromStdString(*name);
        if (auto m = (*t)["max_attempts"].value<int64_t>())
            d.maxAttempts = int(*m);
        if (const toml::array *schedule = (*t)["retry_schedule"].as_array()) {
            for (std::size_t k = 0; k < schedule->size(); ++k) {
                const auto text = schedule->at(k).value<std::string>();
                const auto ms = text ? parseDuration(QString::fromStdString(*text)) : std::nullopt;
                if (!ms)
                    return Failure(QStringLiteral("destinations[%1].retry_schedule[%2] is not a duration")
                                       .arg(i)
                                       .arg(k));
                d.retryScheduleMs.append(*ms);
            }
        }
        out.destinations.append(d);
    }
    return out;
}

} // namespace redrive
