# Installation and the exported package: `cmake --install` puts libstrata, the public headers
# (core, sparse, solvers, dist when built, the generated strata/config.h), the kernel-language mapping headers (kernel
# sources of users' projects need them) and StrataKernels.cmake into the prefix, with
# strataConfig.cmake so that a project does
#   find_package(strata REQUIRED)
#   strata_add_kernels(mytarget SOURCES my.kl.c)
#   target_link_libraries(mytarget PRIVATE strata::strata)
# exactly as apps/ does in-tree (examples/saxpy is such a project).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STRATA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/strata")

install(TARGETS strata EXPORT strataTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY core/include/strata sparse/include/strata solvers/include/strata hmatrix/include/strata
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
# the dist/ module, when built (MPI found): strata::dist, its header beside the others
if(TARGET strata_dist)
  install(TARGETS strata_dist EXPORT strataTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY dist/include/strata DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
endif()
install(FILES ${PROJECT_BINARY_DIR}/include/strata/config.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata)
# the kernel-language mapping headers of every backend, in one folder (they include each other
# by plain name); the config file names it in STRATA_KL_INCLUDE_DIRS
foreach(_be serial openmp gpu cuda hip)
  install(DIRECTORY backends/${_be}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata/kl
          FILES_MATCHING PATTERN "strata_kl_*.h")
endforeach()

install(EXPORT strataTargets NAMESPACE strata:: DESTINATION ${STRATA_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/strataConfig.cmake.in
  ${PROJECT_BINARY_DIR}/strataConfig.cmake
  INSTALL_DESTINATION ${STRATA_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/strataConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/strataConfig.cmake ${PROJECT_BINARY_DIR}/strataConfigVersion.cmake
  cmake/StrataKernels.cmake
  DESTINATION ${STRATA_INSTALL_CMAKEDIR})
