// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "query/downstream.h"

#include <QColor>
#include <QString>
#include <QVariant>

class QTreeWidgetItem;

namespace redrive::ui {

// The colours and words every view uses for statuses, so "dead" looks the same everywhere.
struct StatusLook {
    QColor background;
    QColor foreground;
    QString label;
};

StatusLook statusLook(EventStatus status);
// Shows `look` in one cell of a tree row: the label on the status colours.
void paintChip(QTreeWidgetItem *item, int column, const StatusLook &look);
StatusLook statusLook(DeliveryStatus status);
StatusLook downstreamLook(DownstreamState state);
QString categoryLabel(FailureCategory category); // HttpRetryable → "HTTP retryable"
// A category as stored: an unknown one is shown as it came, a null one as empty text.
QString categoryLabel(const Stored<FailureCategory> &category);
// A status as read from a row; an unknown one is shown as it came.
StatusLook statusLook(const Stored<EventStatus> &status);
StatusLook statusLook(const Stored<DeliveryStatus> &status);

// Everything else the console colours, by meaning rather than by hex value, so a colour (and the
// contrast it was checked for) is chosen here once and "bad" is the same red on every page.
enum class Tone {
    Good, // verified, low risk
    Bad, // errors, broken chains, high risk
    Caution, // paused, needs attention, outcome unknown
    Info, // neutral news: new events arrived
    Muted, // secondary text
};
QColor toneText(Tone tone);
QColor toneBackground(Tone tone);

// What a table cell shows for Qt::BackgroundRole and Qt::ForegroundRole (nothing for other
// roles), so a model answers both roles of a coloured cell in one place.
[[nodiscard]] QVariant cellColour(const StatusLook &look, int role);
[[nodiscard]] QVariant cellColour(Tone tone, int role);

// Style sheets for the few widgets that carry a tone.
QString toneTextStyle(Tone tone, bool bold = false); // a label's text colour
QString noticeStyle(Tone tone); // an inline message box: text on a light background
QString bannerStyle(); // the full-width warning strip above the pages
QString bannerStyle(const QColor &background); // the environment strip in the profile's colour
QString headingStyle();
QString dangerButtonStyle(); // the submit button of a high-risk action
QString infoButtonStyle(); // the "new events" pill
QString invalidFieldStyle(); // the field a validation message points at
QString swatchStyle(const QColor &colour); // a button showing a chosen colour

// Chart series that are not statuses.
QColor receivedSeriesColour();
QColor retriedSeriesColour();
QColor failedAttemptsColour();

} // namespace redrive::ui
