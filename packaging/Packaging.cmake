# Desktop integration files and a CPack Debian package: `cpack -G DEB` in the build dir (or
# `cmake --build <dir> --target package`) gives sandpad_<version>_<arch>.deb with sandpad and
# sandpad-run (their install() rules are in app/*/CMakeLists.txt).
set(SANDPAD_PACKAGING_DIR "${CMAKE_CURRENT_LIST_DIR}")

install(FILES "${SANDPAD_PACKAGING_DIR}/sandpad.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${SANDPAD_PACKAGING_DIR}/icons/sandpad.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
install(FILES "${SANDPAD_PACKAGING_DIR}/io.github.sandpad.Sandpad.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
# The example command provider (docs/providers.md), for users who plug in their own runner.
install(PROGRAMS "${PROJECT_SOURCE_DIR}/resources/runtime/command-provider-example.py"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/sandpad")
# Debian's machine-readable copyright, pointing at the system's copy of the GPL (LICENSE has the text).
install(FILES "${SANDPAD_PACKAGING_DIR}/copyright"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/sandpad")

set(CPACK_PACKAGE_NAME "sandpad")
set(CPACK_PACKAGE_VENDOR "The Sandpad developers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
# License: GPL-3.0-or-later (LICENSE; packaging/copyright is installed as the Debian copyright file).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Run Python and JavaScript snippets in a secure sandbox")
set(CPACK_PACKAGE_DESCRIPTION
    "Sandpad is a desktop notebook: write Python or JavaScript, run it in a fresh\n\
bubblewrap sandbox (or a remote Vercel or Daytona sandbox), watch the output\n\
stream, explore interactive charts and see what each run cost. Includes the\n\
sandpad-run command-line tool.")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_CONTACT "Sandpad developers <sandpad@example.org>")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_NAME "sandpad")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Sandpad developers <sandpad@example.org>")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
# Shared-library dependencies (Qt 6, QScintilla, QCustomPlot, QtKeychain, libseccomp) come from
# dpkg-shlibdeps (libpng too); the programs the sandbox starts are not linked, so they are listed by
# hand. slirp4netns is only needed for runs with the network allowed; python3-jedi for the editor's
# Python completion, calltips and help (without it the editor completes words).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "bubblewrap, python3, python3-matplotlib, python3-pandas, python3-numpy, python3-sympy, nodejs | node, libqt6sql6-sqlite")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core, slirp4netns, python3-plotly, python3-jedi")

include(CPack)
