# install() rules and the exported CMake package, so a game can find_package(rewind) and link rewind::rewind.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
install(TARGETS rewind ${REWIND_MODULE_TARGETS} EXPORT rewindTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/rewind DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(REWIND_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/rewind)
install(EXPORT rewindTargets NAMESPACE rewind:: DESTINATION ${REWIND_CMAKE_DIR})
configure_package_config_file(cmake/rewindConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/rewindConfig.cmake
  INSTALL_DESTINATION ${REWIND_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/rewindConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/rewindConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/rewindConfigVersion.cmake
  cmake/RewindDependencies.cmake DESTINATION ${REWIND_CMAKE_DIR})
