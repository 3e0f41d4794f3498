// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace prometheus {
class Counter;
class Gauge;
class Histogram;
class Registry;
} // namespace prometheus

// Redrive's metrics, kept by prometheus-cpp (its core library: counters, gauges, histograms
// with labels and the text exposition format) and rendered for GET /metrics on the admin
// listener. Instruments are created once (under a mutex) and then updated without a lookup;
// keep the returned reference instead of asking the registry per request. This facade keeps
// Qt strings at the call sites and adds what prometheus-cpp leaves to its users: gauges
// computed when scraped.
namespace redrive::metrics {

using Labels = std::vector<std::pair<QString, QString>>;

class Counter final {
public:
    explicit Counter(prometheus::Counter &counter)
        : m_counter(counter)
    { }
    void inc(double by = 1.0);
    [[nodiscard]] double value() const;

private:
    prometheus::Counter &m_counter;
};

class Gauge final {
public:
    explicit Gauge(prometheus::Gauge &gauge)
        : m_gauge(gauge)
    { }
    void set(double v);
    void inc(double by = 1.0);
    void dec(double by = 1.0) { inc(-by); }
    [[nodiscard]] double value() const;

private:
    prometheus::Gauge &m_gauge;
};

// Cumulative histogram with fixed upper bounds (seconds for latencies).
class Histogram final {
public:
    explicit Histogram(prometheus::Histogram &histogram)
        : m_histogram(histogram)
    { }
    void observe(double v);
    [[nodiscard]] quint64 count() const;
    [[nodiscard]] double sum() const;

    static std::vector<double> latencyBounds(); // 0.5 ms … 30 s

private:
    prometheus::Histogram &m_histogram;
};

class Registry final {
public:
    Registry();
    ~Registry();
    Registry(const Registry &) = delete;
    Registry &operator=(const Registry &) = delete;

    // The same name and labels return the same instrument. A name registered with another
    // kind is a programming error (std::logic_error), as is a name or label prometheus refuses.
    Counter &counter(const QString &name, const QString &help, const Labels &labels = {});
    Gauge &gauge(const QString &name, const QString &help, const Labels &labels = {});
    Histogram &histogram(const QString &name, const QString &help, const Labels &labels = {},
        const std::vector<double> &bounds = Histogram::latencyBounds());
    // A gauge computed when /metrics is scraped (queue depth, oldest pending age). `fn` runs on
    // the scraping thread under the registry lock: it must be quick, thread-safe, and must not
    // touch the registry (read an atomic that a worker keeps up to date, not the database).
    void callbackGauge(
        const QString &name, const QString &help, const Labels &labels, std::function<double()> fn);

    // The Prometheus text exposition format (version 0.0.4).
    [[nodiscard]] QByteArray renderPrometheus() const;

private:
    enum class Kind { Counter, Gauge, Histogram };
    struct Family {
        Kind kind = Kind::Counter;
        void *family = nullptr; // prometheus::Family<T> of the kind, owned by m_registry
    };
    struct Instrument {
        std::unique_ptr<Counter> counter;
        std::unique_ptr<Gauge> gauge;
        std::unique_ptr<Histogram> histogram;
        std::function<double()> callback;
    };
    Family &family(const QString &name, const QString &help, Kind kind);
    Instrument &instrument(const QString &name, const Labels &labels);

    mutable std::mutex m_mutex;
    std::shared_ptr<prometheus::Registry> m_registry;
    std::map<QString, Family> m_families;
    std::map<std::pair<QString, Labels>, Instrument> m_instruments;
    std::vector<Instrument *> m_callbacks;
};

} // namespace redrive::metrics
