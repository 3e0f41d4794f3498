// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/eventfilter.h"

class QSettings;

namespace redrive::ui {

// Named filters, kept per profile in settings in the admin API's query-string form, so a view
// saved here reads the same as a `GET events` query.
class SavedViews final {
public:
    SavedViews(QSettings &settings, QString profile);
    [[nodiscard]] QStringList names() const;
    [[nodiscard]] std::optional<EventFilter> load(const QString &name) const;
    void save(const QString &name, const EventFilter &filter);
    void remove(const QString &name);

private:
    [[nodiscard]] QString group() const;
    [[nodiscard]] QString key(const QString &name) const;
    QSettings &m_settings;
    QString m_profile;
};

} // namespace redrive::ui
