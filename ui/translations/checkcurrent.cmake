# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
#
# CTest `translations_current`: fails when a committed .ts under ui/translations/ is not what
# update_translations makes of today's sources (a string added, changed or dropped without
# `cmake --build <dir> --target update_translations`), or when a counted phrase of redrive_en.ts
# has no English singular and plural (the console would print "1 event(s)"). Runs lupdate and
# scripts/english_plurals.py on copies, so the tree is left as it is. Variables: PROJECT_CMAKE
# (the lupdate project the build generated), GENERATE_PROJECT (Qt's script that turns it into
# JSON), LUPDATE, LUPDATE_OPTIONS (comma-separated), PYTHON, ENGLISH_PLURALS, WORK_DIR, BUILD_DIR.
cmake_minimum_required(VERSION 3.25)

if(NOT EXISTS "${PROJECT_CMAKE}")
    message(FATAL_ERROR "translations_current: ${PROJECT_CMAKE} is missing; configure the build first")
endif()
include("${PROJECT_CMAKE}") # lupdate_project_file, lupdate_include_paths, lupdate_sources, lupdate_translations
string(REPLACE "," ";" options "${LUPDATE_OPTIONS}")

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(copies "")
foreach(ts IN LISTS lupdate_translations)
    get_filename_component(name "${ts}" NAME)
    file(COPY_FILE "${ts}" "${WORK_DIR}/${name}")
    list(APPEND copies "${WORK_DIR}/${name}")
endforeach()

file(WRITE "${WORK_DIR}/project.cmake"
    "set(lupdate_project_file \"${lupdate_project_file}\")\n"
    "set(lupdate_include_paths \"${lupdate_include_paths}\")\n"
    "set(lupdate_sources \"${lupdate_sources}\")\n"
    "set(lupdate_translations \"${copies}\")\n")
execute_process(COMMAND "${CMAKE_COMMAND}" "-DIN_FILE=${WORK_DIR}/project.cmake"
        "-DOUT_FILE=${WORK_DIR}/project.json" -P "${GENERATE_PROJECT}"
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "translations_current: could not write the lupdate project")
endif()
execute_process(COMMAND "${LUPDATE}" -project "${WORK_DIR}/project.json" ${options} -silent
    RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "translations_current: lupdate failed: ${err}")
endif()

foreach(copy IN LISTS copies)
    get_filename_component(name "${copy}" NAME)
    if(name STREQUAL "redrive_en.ts")
        execute_process(COMMAND "${PYTHON}" "${ENGLISH_PLURALS}" "${copy}" RESULT_VARIABLE rc)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR "translations_current: english_plurals.py failed on ${copy}")
        endif()
    endif()
endforeach()

set(unfilled "")
foreach(ts IN LISTS lupdate_translations)
    get_filename_component(name "${ts}" NAME)
    if(name STREQUAL "redrive_en.ts")
        execute_process(COMMAND "${PYTHON}" "${ENGLISH_PLURALS}" --check "${ts}"
            RESULT_VARIABLE rc ERROR_VARIABLE err)
        if(NOT rc EQUAL 0)
            string(APPEND unfilled "${err}")
        endif()
    endif()
endforeach()
if(unfilled)
    message(FATAL_ERROR "translations_current: counted phrases without their English forms:\n"
        "${unfilled}Run: cmake --build ${BUILD_DIR} --target update_translations")
endif()

set(stale "")
foreach(ts IN LISTS lupdate_translations)
    get_filename_component(name "${ts}" NAME)
    file(READ "${ts}" committed)
    file(READ "${WORK_DIR}/${name}" current)
    if(NOT committed STREQUAL current)
        list(APPEND stale "${ts}")
    endif()
endforeach()
if(stale)
    list(JOIN stale "\n  " stale)
    message(FATAL_ERROR "translations_current: not up to date with the sources:\n  ${stale}\n"
        "Run: cmake --build ${BUILD_DIR} --target update_translations")
endif()
message(STATUS "translations_current: every .ts matches the sources")
