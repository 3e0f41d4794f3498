// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "metrics.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>
#include <stdexcept>

namespace redrive::metrics {
namespace {

prometheus::Labels toLabels(const Labels &labels)
{
    prometheus::Labels out;
    for (const auto &[name, value] : labels)
        out.emplace(name.toStdString(), value.toStdString());
    return out;
}

template<typename T> prometheus::Family<T> &familyOf(void *family)
{
    return *static_cast<prometheus::Family<T> *>(family);
}

} // namespace

void Counter::inc(double by)
{
    m_counter.Increment(by);
}

double Counter::value() const
{
    return m_counter.Value();
}

void Gauge::set(double v)
{
    m_gauge.Set(v);
}

void Gauge::inc(double by)
{
    m_gauge.Increment(by);
}

double Gauge::value() const
{
    return m_gauge.Value();
}

void Histogram::observe(double v)
{
    m_histogram.Observe(v);
}

quint64 Histogram::count() const
{
    return m_histogram.Collect().histogram.sample_count;
}

double Histogram::sum() const
{
    return m_histogram.Collect().histogram.sample_sum;
}

std::vector<double> Histogram::latencyBounds()
{
    return { 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30 };
}

Registry::Registry()
    : m_registry(std::make_shared<prometheus::Registry>())
{ }

Registry::~Registry() = default;

Registry::Family &Registry::family(const QString &name, const QString &help, Kind kind)
{
    const auto found = m_families.find(name);
    if (found != m_families.end()) {
        if (found->second.kind != kind)
            throw std::logic_error("metric registered twice with different kinds: " + name.toStdString());
        return found->second;
    }
    Family f { kind, nullptr };
    try {
        switch (kind) {
        case Kind::Counter:
            f.family = &prometheus::BuildCounter()
                            .Name(name.toStdString())
                            .Help(help.toStdString())
                            .Register(*m_registry);
            break;
        case Kind::Gauge:
            f.family = &prometheus::BuildGauge()
                            .Name(name.toStdString())
                            .Help(help.toStdString())
                            .Register(*m_registry);
            break;
        case Kind::Histogram:
            f.family = &prometheus::BuildHistogram()
                            .Name(name.toStdString())
                            .Help(help.toStdString())
                            .Register(*m_registry);
            break;
        }
    } catch (const std::invalid_argument &e) {
        throw std::logic_error("metric " + name.toStdString() + " refused: " + e.what());
    }
    return m_families.emplace(name, f).first->second;
}

Registry::Instrument &Registry::instrument(const QString &name, const Labels &labels)
{
    return m_instruments[{ name, labels }];
}

Counter &Registry::counter(const QString &name, const QString &help, const Labels &labels)
{
    std::lock_guard lock(m_mutex);
    Family &f = family(name, help, Kind::Counter);
    Instrument &i = instrument(name, labels);
    if (!i.counter)
        i.counter = std::make_unique<Counter>(familyOf<prometheus::Counter>(f.family).Add(toLabels(labels)));
    return *i.counter;
}

Gauge &Registry::gauge(const QString &name, const QString &help, const Labels &labels)
{
    std::lock_guard lock(m_mutex);
    Family &f = family(name, help, Kind::Gauge);
    Instrument &i = instrument(name, labels);
    if (!i.gauge)
        i.gauge = std::make_unique<Gauge>(familyOf<prometheus::Gauge>(f.family).Add(toLabels(labels)));
    return *i.gauge;
}

Histogram &Registry::histogram(
    const QString &name, const QString &help, const Labels &labels, const std::vector<double> &bounds)
{
    std::lock_guard lock(m_mutex);
    Family &f = family(name, help, Kind::Histogram);
    Instrument &i = instrument(name, labels);
    if (!i.histogram)
        i.histogram = std::make_unique<Histogram>(
            familyOf<prometheus::Histogram>(f.family).Add(toLabels(labels), bounds));
    return *i.histogram;
}

void Registry::callbackGauge(
    const QString &name, const QString &help, const Labels &labels, std::function<double()> fn)
{
    std::lock_guard lock(m_mutex);
    Family &f = family(name, help, Kind::Gauge);
    Instrument &i = instrument(name, labels);
    if (!i.gauge)
        i.gauge = std::make_unique<Gauge>(familyOf<prometheus::Gauge>(f.family).Add(toLabels(labels)));
    if (!i.callback)
        m_callbacks.push_back(&i);
    i.callback = std::move(fn);
}

QByteArray Registry::renderPrometheus() const
{
    std::lock_guard lock(m_mutex);
    for (Instrument *i : m_callbacks)
        i->gauge->set(i->callback());
    const std::string text = prometheus::TextSerializer().Serialize(m_registry->Collect());
    return QByteArray(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace redrive::metrics
