# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
#
# One INTERFACE target carries the compile policy; every Redrive target links it.

add_library(redrive_policy INTERFACE)
add_library(Redrive::policy ALIAS redrive_policy)

target_compile_features(redrive_policy INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)

target_compile_definitions(redrive_policy INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CAST_FROM_BYTEARRAY
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_CONTEXTLESS_CONNECT
    QT_NO_FOREACH
    QT_NO_KEYWORDS
    QT_USE_QSTRINGBUILDER
    QT_DISABLE_DEPRECATED_BEFORE=0x060400
    BOOST_ASIO_NO_DEPRECATED
    BOOST_BEAST_USE_STD_STRING_VIEW
    REDRIVE_VERSION="${PROJECT_VERSION}")

target_compile_options(redrive_policy INTERFACE
    -Wall -Wextra -Wpedantic
    -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wunused
    -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough
    -Wformat=2)

if(REDRIVE_WERROR)
    target_compile_options(redrive_policy INTERFACE -Werror)
endif()

option(REDRIVE_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(REDRIVE_SANITIZE)
    target_compile_options(redrive_policy INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(redrive_policy INTERFACE -fsanitize=address,undefined)
endif()

# Precompiled headers. Most of a source's compile time is the Qt and standard headers it
# includes, parsed again for every file: the libraries with many sources each precompile the
# headers most of their sources use, once (ui/events/eventscontroller.cpp: 4.4 s of CPU without,
# 2.4 s with). Only a library's own: gcc refuses a precompiled header made with other macro
# definitions (-Winvalid-pch), and the test executables, one or two sources each, would gain
# nothing from one of their own. The static checks compile every source without it, so a file
# that forgets an include of its own still fails there.
#   redrive_precompile(TARGET core|ui)
option(REDRIVE_PCH "Precompile the Qt and standard headers most sources include" ON)
set(_redrive_pch_core
    <QByteArray> <QDateTime> <QHash> <QJsonArray> <QJsonDocument> <QJsonObject> <QList>
    <QSqlQuery> <QString> <QStringList> <QVariant>
    <algorithm> <chrono> <functional> <memory> <mutex> <optional> <vector>)
set(_redrive_pch_ui ${_redrive_pch_core}
    <QAbstractTableModel> <QAction> <QHBoxLayout> <QHeaderView> <QLabel> <QLineEdit>
    <QPushButton> <QSettings> <QSplitter> <QTableView> <QTimer> <QVBoxLayout> <QWidget>)
function(redrive_precompile target kind)
    if(REDRIVE_PCH)
        target_precompile_headers(${target} PRIVATE ${_redrive_pch_${kind}})
    endif()
endfunction()
