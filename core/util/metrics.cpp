// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "metrics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace redrive::metrics {
namespace {
void atomicAdd(std::atomic<double> &a, double by)
{
    double current = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(current, current + by, std::memory_order_relaxed)) { }
}

QByteArray number(double v)
{
    if (std::isinf(v))
        return v > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    if (std::floor(v) == v && std::fabs(v) < 1e15)
        return QByteArray::number(static_cast<qint64>(v));
    return QByteArray::number(v, 'g', 12);
}

QByteArray escapeLabel(const QString &v)
{
    QByteArray out;
    for (char c : v.toUtf8()) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

QByteArray labelText(const Labels &labels, const std::pair<QString, QString> *extra = nullptr)
{
    if (labels.empty() && !extra)
        return {};
    QByteArray out = "{";
    bool first = true;
    auto add = [&](const std::pair<QString, QString> &l) {
        if (!first)
            out += ',';
        first = false;
        out += l.first.toUtf8() + "=\"" + escapeLabel(l.second) + '"';
    };
    for (const auto &l : labels)
        add(l);
    if (extra)
        add(*extra);
    out += '}';
    return out;
}
} // namespace

void Counter::inc(double by)
{
    atomicAdd(m_value, by);
}

void Gauge::inc(double by)
{
    atomicAdd(m_value, by);
}

Histogram::Histogram(std::vector<double> bounds)
    : m_bounds(std::move(bounds))
    , m_buckets(new std::atomic<quint64>[m_bounds.size() + 1])
{
    std::sort(m_bounds.begin(), m_bounds.end());
    for (std::size_t i = 0; i <= m_bounds.size(); ++i)
        m_buckets[i].store(0);
}

void Histogram::observe(double v)
{
    const auto it = std::lower_bound(m_bounds.begin(), m_bounds.end(), v);
    m_buckets[static_cast<std::size_t>(it - m_bounds.begin())].fetch_add(1, std::memory_order_relaxed);
    atomicAdd(m_sum, v);
    m_count.fetch_add(1, std::memory_order_relaxed);
}

std::vector<quint64> Histogram::bucketCounts() const
{
    std::vector<quint64> out(m_bounds.size() + 1);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = m_buckets[i].load(std::memory_order_relaxed);
    return out;
}

double Histogram::quantile(double q) const
{
    const auto counts = bucketCounts();
    quint64 total = 0;
    for (auto c : counts)
        total += c;
    if (total == 0)
        return 0;
    const double rank = q * static_cast<double>(total);
    double seen = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const double next = seen + static_cast<double>(counts[i]);
        if (next >= rank && counts[i] > 0) {
            const double lower = i == 0 ? 0.0 : m_bounds[i - 1];
            const double upper = i < m_bounds.size() ? m_bounds[i] : lower;
            return lower + (upper - lower) * ((rank - seen) / static_cast<double>(counts[i]));
        }
        seen = next;
    }
    return m_bounds.empty() ? 0 : m_bounds.back();
}

std::vector<double> Histogram::latencyBounds()
{
    return { 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30 };
}

Registry::Series &Registry::series(const QString &name, const QString &help, Kind kind, const Labels &labels)
{
    std::lock_guard lock(m_mutex);
    auto &family = m_families[name];
    if (family.series.empty()) {
        family.kind = kind;
        family.help = help;
    } else if (family.kind != kind) {
        throw std::logic_error("metric registered twice with different kinds: " + name.toStdString());
    }
    for (auto &s : family.series) {
        if (s->labels == labels)
            return *s;
    }
    family.series.push_back(std::make_unique<Series>());
    family.series.back()->labels = labels;
    return *family.series.back();
}

Counter &Registry::counter(const QString &name, const QString &help, const Labels &labels)
{
    auto &s = series(name, help, Kind::Counter, labels);
    std::lock_guard lock(m_mutex);
    if (!s.counter)
        s.counter = std::make_unique<Counter>();
    return *s.counter;
}

Gauge &Registry::gauge(const QString &name, const QString &help, const Labels &labels)
{
    auto &s = series(name, help, Kind::Gauge, labels);
    std::lock_guard lock(m_mutex);
    if (!s.gauge)
        s.gauge = std::make_unique<Gauge>();
    return *s.gauge;
}

Histogram &Registry::histogram(
    const QString &name, const QString &help, const Labels &labels, std::vector<double> bounds)
{
    auto &s = series(name, help, Kind::Histogram, labels);
    std::lock_guard lock(m_mutex);
    if (!s.histogram)
        s.histogram = std::make_unique<Histogram>(std::move(bounds));
    return *s.histogram;
}

void Registry::callbackGauge(
    const QString &name, const QString &help, const Labels &labels, std::function<double()> fn)
{
    auto &s = series(name, help, Kind::Callback, labels);
    std::lock_guard lock(m_mutex);
    s.callback = std::move(fn);
}

QByteArray Registry::renderPrometheus() const
{
    QByteArray out;
    std::lock_guard lock(m_mutex);
    for (const auto &[name, family] : m_families) {
        const QByteArray n = name.toUtf8();
        static const char *types[] = { "counter", "gauge", "histogram", "gauge" };
        out += "# HELP " + n + ' ' + family.help.toUtf8() + '\n';
        out += "# TYPE " + n + ' ' + types[static_cast<int>(family.kind)] + '\n';
        for (const auto &s : family.series) {
            switch (family.kind) {
            case Kind::Counter:
                out += n + labelText(s->labels) + ' ' + number(s->counter ? s->counter->value() : 0) + '\n';
                break;
            case Kind::Gauge:
                out += n + labelText(s->labels) + ' ' + number(s->gauge ? s->gauge->value() : 0) + '\n';
                break;
            case Kind::Callback:
                out += n + labelText(s->labels) + ' ' + number(s->callback ? s->callback() : 0) + '\n';
                break;
            case Kind::Histogram: {
                if (!s->histogram)
                    break;
                const auto counts = s->histogram->bucketCounts();
                const auto &bounds = s->histogram->bounds();
                quint64 cumulative = 0;
                for (std::size_t i = 0; i < counts.size(); ++i) {
                    cumulative += counts[i];
                    const std::pair<QString, QString> le { QStringLiteral("le"),
                        i < bounds.size() ? QString::fromLatin1(number(bounds[i])) : QStringLiteral("+Inf") };
                    out += n + "_bucket" + labelText(s->labels, &le) + ' ' + QByteArray::number(cumulative)
                        + '\n';
                }
                out += n + "_sum" + labelText(s->labels) + ' ' + number(s->histogram->sum()) + '\n';
                out += n + "_count" + labelText(s->labels) + ' ' + QByteArray::number(s->histogram->count())
                    + '\n';
                break;
            }
            }
        }
    }
    return out;
}

} // namespace redrive::metrics
