// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

// A small, lock-free-on-the-hot-path metrics registry rendered as Prometheus text
// (GET /metrics). Instruments are created once (under a mutex) and then updated with atomics;
// keep the returned reference instead of looking it up per request.
namespace redrive::metrics {

using Labels = std::vector<std::pair<QString, QString>>;

class Counter final {
public:
    void inc(double by = 1.0);
    [[nodiscard]] double value() const { return m_value.load(std::memory_order_relaxed); }

private:
    std::atomic<double> m_value { 0 };
};

class Gauge final {
public:
    void set(double v) { m_value.store(v, std::memory_order_relaxed); }
    void inc(double by = 1.0);
    void dec(double by = 1.0) { inc(-by); }
    [[nodiscard]] double value() const { return m_value.load(std::memory_order_relaxed); }

private:
    std::atomic<double> m_value { 0 };
};

// Cumulative histogram with fixed upper bounds (seconds for latencies).
class Histogram final {
public:
    explicit Histogram(std::vector<double> bounds);
    void observe(double v);
    [[nodiscard]] const std::vector<double> &bounds() const { return m_bounds; }
    [[nodiscard]] std::vector<quint64> bucketCounts() const; // per bound, non-cumulative, plus +Inf last
    [[nodiscard]] double sum() const { return m_sum.load(std::memory_order_relaxed); }
    [[nodiscard]] quint64 count() const { return m_count.load(std::memory_order_relaxed); }
    // Estimated quantile (0..1) by linear interpolation inside the bucket.
    [[nodiscard]] double quantile(double q) const;

    static std::vector<double> latencyBounds(); // 0.5 ms … 30 s

private:
    std::vector<double> m_bounds;
    std::unique_ptr<std::atomic<quint64>[]> m_buckets;
    std::atomic<double> m_sum { 0 };
    std::atomic<quint64> m_count { 0 };
};

class Registry final {
public:
    Counter &counter(const QString &name, const QString &help, const Labels &labels = {});
    Gauge &gauge(const QString &name, const QString &help, const Labels &labels = {});
    Histogram &histogram(const QString &name, const QString &help, const Labels &labels = {},
        std::vector<double> bounds = Histogram::latencyBounds());
    // A gauge computed when /metrics is scraped (queue depth, oldest pending age). `fn` runs on
    // the scraping thread under the registry lock: it must be quick, thread-safe, and must not
    // touch the registry (read an atomic that a worker keeps up to date, not the database).
    void callbackGauge(
        const QString &name, const QString &help, const Labels &labels, std::function<double()> fn);

    [[nodiscard]] QByteArray renderPrometheus() const;

private:
    enum class Kind { Counter, Gauge, Histogram, Callback };
    struct Series {
        Labels labels;
        std::unique_ptr<Counter> counter;
        std::unique_ptr<Gauge> gauge;
        std::unique_ptr<Histogram> histogram;
        std::function<double()> callback;
    };
    struct Family {
        Kind kind;
        QString help;
        std::vector<std::unique_ptr<Series>> series;
    };
    Series &series(const QString &name, const QString &help, Kind kind, const Labels &labels);

    mutable std::mutex m_mutex;
    std::map<QString, Family> m_families;
};

} // namespace redrive::metrics
